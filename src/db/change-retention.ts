/**
 * @module Keeps the change feed to its retention: prunes at start and then hourly, in the background of a
 * server process. Several processes on one database may all prune; each removal is idempotent and the
 * horizon only moves forward. A failure (the database away) is logged and retried at the next turn.
 */
import type { Logger } from '../log.js';
import { sweepPeriodically } from '../sweep.js';
import type { Database } from './client.js';
import { pruneChanges } from './queries/changes.js';

/** How often a process prunes: events outlive their retention by at most this much. */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Starts pruning; answers a function that stops it. */
export function pruneChangesPeriodically(database: Database, retentionDays: number, log: Logger): () => void {
  return sweepPeriodically(
    {
      every: PRUNE_EVERY_MS,
      run: () => pruneChanges(database.db, { retentionDays }),
      describe: {
        doing: 'pruning the change feed',
        done: (removed) =>
          removed > 0 ? { message: 'change feed pruned', fields: { removed, retentionDays } } : undefined,
      },
    },
    log,
  );
}
