/**
 * @module Declares overdue loans lost in the background of a server process: at start, then hourly, by the
 * app's clock (business time). Lost is counted in days, so an hour late is on time.
 */
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log.js';
import { sweepPeriodically } from '../sweep.js';
import type { Database } from './client.js';
import { declareLostLoans } from './queries/lost-loans.js';

/** A loan is declared lost at most this long after it is `lost_after_days` past due. */
export const DECLARE_LOST_EVERY_MS = 60 * 60 * 1000;

/**
 * Starts the sweep; answers a function that stops it. Several processes may sweep one database: each batch
 * skips loans another holds, and a loan is declared and charged once (`declareLostLoans`).
 */
export function declareLostPeriodically(
  database: Database,
  settings: { clock: Clock; timeZone: string; currency: string },
  log: Logger,
): () => void {
  return sweepPeriodically(
    {
      every: DECLARE_LOST_EVERY_MS,
      run: () =>
        declareLostLoans(database.db, {
          at: settings.clock.now(),
          timeZone: settings.timeZone,
          currency: settings.currency,
        }),
      describe: {
        doing: 'declaring lost loans',
        done: (declared) =>
          declared.loans > 0 ? { message: 'loans declared lost', fields: { ...declared } } : undefined,
      },
    },
    log,
  );
}
