/**
 * @module Passes on the copies of ready holds whose time ran out, every few seconds in the background of a
 * server process, so a copy goes to the next in line without waiting for that book's next step.
 */
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log.js';
import { sweepPeriodically } from '../sweep.js';
import type { Database } from './client.js';
import { expireReadyHolds } from './queries/circulation.js';

/** A ready hold's copy passes on at most this long after its `ready_until`. */
export const SWEEP_EVERY_MS = 15_000;

/**
 * A book's own circulation steps settle it first anyway, and reads show such a hold as expired at once.
 * Several processes may sweep one database: each book is settled under its row lock, skipped when another
 * transaction holds it.
 */
/** Starts sweeping, by `clock` (the app's: business time); answers a function that stops it. */
export function expireHoldsPeriodically(
  database: Database,
  { holdDays, clock }: { holdDays: number; clock: Clock },
  log: Logger,
): () => void {
  return sweepPeriodically(
    {
      every: SWEEP_EVERY_MS,
      run: () => expireReadyHolds(database.db, { holdDays, at: clock.now() }),
      describe: {
        doing: 'expiring holds',
        done: (settled) =>
          settled > 0 ? { message: 'expired holds passed on', fields: { books: settled } } : undefined,
      },
      // The first sweep waits one interval; meanwhile reads show such a hold as expired already.
      atStart: false,
    },
    log,
  );
}
