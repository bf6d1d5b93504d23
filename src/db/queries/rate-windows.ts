/**
 * @module Counting rate limits in the database: one upsert per counted request, atomic under the row's
 * lock, so that requests spread over any number of processes are counted exactly once each; and the sweep
 * of windows that have ended.
 */
import { lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { prepared } from '../prepared.js';
import { rateWindows } from '../schema/index.js';

export interface SpendQuotaParams {
  /** Whose quota: `user:<id>` or `address:<ip>`. */
  caller: string;
  kind: string;
  /** Length of a window that starts with this request. */
  windowSeconds: number;
}

/** The caller's window after counting one request. */
export interface QuotaSpent {
  /** Requests counted in the window, this one included. */
  used: number;
  /** Whole seconds until the window turns, at least 1. */
  resetSeconds: number;
}

/**
 * Counts one request in the caller's current window, starting a new window when the last has ended. Both
 * assignments read the row as it was, so the window turns and the count restarts together.
 */
export async function spendQuota(db: Db, params: SpendQuotaParams): Promise<QuotaSpent> {
  const statement = prepared(db, 'spend_quota', (db) => {
    const ended = sql`${rateWindows.endsAt} <= now()`;
    return db
      .insert(rateWindows)
      .values({
        caller: sql.placeholder('caller'),
        kind: sql.placeholder('kind'),
        endsAt: sql`now() + make_interval(secs => ${sql.placeholder('windowSeconds')})`,
        used: 1,
      })
      .onConflictDoUpdate({
        target: [rateWindows.caller, rateWindows.kind],
        set: {
          endsAt: sql`case when ${ended} then excluded.ends_at else ${rateWindows.endsAt} end`,
          used: sql`case when ${ended} then 1 else ${rateWindows.used} + 1 end`,
        },
      })
      .returning({
        used: rateWindows.used,
        resetSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${rateWindows.endsAt} - now())))::int`,
      })
      .prepare('spend_quota');
  });
  const [spent] = await statement.execute({ ...params });
  return spent as QuotaSpent;
}

/** Removes the windows that have ended: a caller who comes back starts a new one, as after a sweep. */
export async function sweepRateWindows(db: Db): Promise<void> {
  await db.delete(rateWindows).where(lte(rateWindows.endsAt, sql`now()`));
}
