/** @module `catalogue loans declare-lost`: the lost-items job run once, as the server's hourly sweep runs it. */
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import { declareLostLoans } from '../db/queries/lost-loans.js';
import { positiveWholeNumber } from './arguments.js';
import { print, withDatabase } from './database.js';

export function addLoansCommands(program: Command): void {
  const group = program.command('loans').description('work on loans without HTTP');

  group
    .command('declare-lost')
    .description(
      'declare lost every active loan its lost_after_days past due, charging its lost_charge and its overdue fine (running it again changes nothing)',
    )
    .option('--at <instant>', 'the moment it is decided at, ISO 8601 (default: now)', instant)
    .option('--batch <n>', 'loans per transaction', positiveWholeNumber)
    .option(
      '--workers <n>',
      'transactions at once, each on its own share of the borrowers (default: 2)',
      positiveWholeNumber,
    )
    .action(async (options: { at?: Date; batch?: number; workers?: number }) => {
      const config = loadConfig();
      await withDatabase(async (db) => {
        const declared = await declareLostLoans(db, {
          at: options.at ?? new Date(),
          timeZone: config.timeZone,
          currency: config.currency,
          ...(options.batch !== undefined && { batchSize: options.batch }),
          ...(options.workers !== undefined && { workers: options.workers }),
        });
        print(
          `declared ${declared.loans} loans lost; charged ${declared.lostItemCharges} lost items and ${declared.overdueFines} overdue fines`,
        );
      });
    });
}

/** An instant with its offset (`2026-12-01T09:00:00Z`), as the API writes them. */
function instant(value: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
    ? new Date(value)
    : undefined;
  if (!at || Number.isNaN(at.getTime())) {
    throw new InvalidArgumentError('It must be an ISO 8601 instant with its offset, e.g. 2026-12-01T09:00:00Z.');
  }
  return at;
}
