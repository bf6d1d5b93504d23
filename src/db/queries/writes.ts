/**
 * @module What every write of a stored resource shares: the row it targets (at one of the versions an
 * `If-Match` named, if any), and the translation of what the database refused into the catalogue's errors.
 */
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type CatalogueError, InvalidInput } from '../../domain/errors.js';
import { CHECK_VIOLATION, constraintViolation } from '../errors.js';

/** The row with this id, at one of these versions when given (a conditional write). */
export function atVersions(
  table: { id: PgColumn; version: PgColumn },
  params: { id: number; versions?: number[] | undefined },
): SQL | undefined {
  return params.versions
    ? and(eq(table.id, params.id), inArray(table.version, params.versions))
    : eq(table.id, params.id);
}

/**
 * Translates a refused write: a constraint named (or an SQLSTATE given) in `refusals` becomes its own
 * error; any other broken check says which catalogue rule the resource broke; anything else is rethrown.
 */
export function rejectedWrite(kind: string, refusals: Record<string, () => CatalogueError> = {}) {
  return (error: unknown): never => {
    const violation = constraintViolation(error);
    if (violation) {
      const refusal = (violation.constraint && refusals[violation.constraint]) || refusals[violation.code];
      if (refusal) throw refusal();
      if (violation.code === CHECK_VIOLATION) {
        throw new InvalidInput(`the ${kind} breaks the catalogue rule ${violation.constraint ?? ''}`.trim());
      }
    }
    throw error;
  };
}
