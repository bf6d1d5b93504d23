/**
 * @module Counting rate limits in the database: one upsert adds a process's requests to the caller's row,
 * atomic under the row's lock, so that requests spread over any number of processes are each counted once;
 * and the sweep of windows that have ended.
 */
import { lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { prepared } from '../prepared.js';
import { rateWindows } from '../schema/index.js';

export interface SpendQuotaParams {
  /** Whose quota: `user:<id>` or `address:<ip>`. */
  caller: string;
  kind: string;
  /** Length of a window that starts with these requests. */
  windowSeconds: number;
  /** Requests added at once, at least 1. */
  requests: number;
}

/** The caller's window after counting. */
export interface WindowCount {
  /** Requests counted in the window, these included. */
  used: number;
  /** Milliseconds until the window turns, by the database's clock. */
  endsInMs: number;
}

/**
 * Adds `requests` to the caller's current window, starting a new window with them when the last has ended.
 * Both assignments read the row as it was, so the window turns and the count restarts together.
 */
export async function spendQuota(db: Db, params: SpendQuotaParams): Promise<WindowCount> {
  const statement = prepared(db, 'spend_quota', (db) => {
    const ended = sql`${rateWindows.endsAt} <= now()`;
    return db
      .insert(rateWindows)
      .values({
        caller: sql.placeholder('caller'),
        kind: sql.placeholder('kind'),
        endsAt: sql`now() + make_interval(secs => ${sql.placeholder('windowSeconds')})`,
        used: sql`${sql.placeholder('requests')}::int`,
      })
      .onConflictDoUpdate({
        target: [rateWindows.caller, rateWindows.kind],
        set: {
          endsAt: sql`case when ${ended} then excluded.ends_at else ${rateWindows.endsAt} end`,
          used: sql`case when ${ended} then excluded.used else ${rateWindows.used} + excluded.used end`,
        },
      })
      .returning({
        used: rateWindows.used,
        endsInMs: sql<number>`(extract(epoch from ${rateWindows.endsAt} - now()) * 1000)::float8`,
      })
      .prepare('spend_quota');
  });
  const [spent] = await statement.execute({ ...params });
  return spent as WindowCount;
}

/** Removes the windows that have ended: a caller who comes back starts a new one, as after a sweep. */
export async function sweepRateWindows(db: Db): Promise<void> {
  await db.delete(rateWindows).where(lte(rateWindows.endsAt, sql`now()`));
}
