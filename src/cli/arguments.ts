/**
 * @module What the operator CLI's commands share about their arguments: the error for a wrong one, and
 * the parsers commander runs on option values before any command touches the database.
 */
import { InvalidArgumentError } from 'commander';
import { idOf } from '../domain/limits.js';

/** A wrong argument found by a command itself (a file it cannot read, a user that does not exist). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses an id or a count: 1 to 2,147,483,647, as a database id is. */
export function positiveWholeNumber(value: string): number {
  const number = idOf(value);
  if (number === undefined) throw new InvalidArgumentError('It must be a positive whole number.');
  return number;
}

/** A message (commander's may hold a line break before a suggestion) as the one line the CLI prints. */
export function oneLine(message: string): string {
  return `catalogue: ${message
    .trim()
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')}`;
}
