/**
 * @module Reading and pruning the change feed. Events are read by number after a cursor, filtered in
 * SQL to what the caller may see, so every read is one short indexed query and holds nothing between
 * reads; pruning removes the oldest events in bounded batches and moves the horizon past them.
 */
import { and, asc, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Change, FeedHorizon, FeedStart } from '../../domain/change.js';
import type { LoanEventScope } from '../../domain/policy.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { changes } from '../schema/index.js';
import { isoTimestamp } from './sql.js';

const changeColumns = {
  id: changes.id,
  type: changes.type,
  resource_id: changes.resourceId,
  at: isoTimestamp(changes.at).as('at'),
};

export interface ReadChangesParams {
  /** Events numbered above this one. */
  after: number;
  limit: number;
  /** Whose loan events are included. */
  loans: LoanEventScope;
}

/** Up to `limit` events after `after`, in order, of those the scope lets through. */
export async function readChanges(db: Db, params: ReadChangesParams): Promise<Change[]> {
  const rows = await db
    .select(changeColumns)
    .from(changes)
    .where(and(gt(changes.id, params.after), visible(params.loans)))
    .orderBy(asc(changes.id))
    .limit(params.limit);
  return rows.map((row) => ({ ...row, id: Number(row.id) })) as Change[];
}

function visible(scope: LoanEventScope): SQL | undefined {
  if (scope.loansOf === 'everyone') return undefined;
  if (scope.loansOf === 'nobody') return isNull(changes.borrowerId);
  return or(isNull(changes.borrowerId), eq(changes.borrowerId, scope.id));
}

/** A read of the feed: the events after a position, and where the feed stands. */
export interface FeedRead {
  /** The position read after: the one asked for, or the horizon when none was. */
  after: number;
  events: Change[];
  horizon: FeedHorizon & { last: number };
}

/**
 * Events after `after` (when absent, from where `from` says: the oldest event kept, or after the newest),
 * and the horizon, from one snapshot: a prune committing in between cannot remove events from under the
 * read unnoticed. Nothing is read from a position before the horizon or past the newest event; the caller
 * refuses those.
 */
export function readFeed(
  db: Db,
  params: Omit<ReadChangesParams, 'after'> & { after: number | undefined; from?: FeedStart },
): Promise<FeedRead> {
  return db.transaction(
    async (tx) => {
      const horizon = await feedHorizon(tx);
      const after = params.after ?? (params.from === 'now' ? horizon.last : horizon.prunedThrough);
      const readable = after >= horizon.prunedThrough && after <= horizon.last;
      const events = readable ? await readChanges(tx, { ...params, after }) : [];
      return { after, events, horizon };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Where the feed begins, and the number of its newest event (the horizon when it holds none). */
export async function feedHorizon(db: Db): Promise<FeedHorizon & { last: number }> {
  const result = await db.execute(sql`
    select h.pruned_through as "prunedThrough", ${isoTimestamp(sql`h.begins_at`)} as "beginsAt",
      greatest(h.pruned_through, (select max(id) from changes)) as "last"
    from changes_horizon h`);
  const [row] = rowsOf<{ prunedThrough: string | number; beginsAt: string; last: string | number }>(result);
  if (!row) throw new Error('the changes_horizon row is missing');
  return { prunedThrough: Number(row.prunedThrough), beginsAt: row.beginsAt, last: Number(row.last) };
}

/** Events removed per statement while pruning: each delete is short, whatever the backlog. */
const PRUNE_BATCH = 10_000;

/**
 * Removes the events recorded more than `retentionDays` ago, oldest first and only as a prefix (the first
 * event kept stops it), and moves the horizon past them; answers how many were removed.
 */
export async function pruneChanges(db: Db, params: { retentionDays: number }): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db.execute(sql`
      with head as (select id, at from changes order by id limit ${PRUNE_BATCH}),
      kept as (select min(id) as id from head where at >= now() - make_interval(days => ${params.retentionDays})),
      gone as (
        delete from changes
        where id in (select id from head where id < coalesce((select id from kept), 9223372036854775807))
        returning id, at
      ),
      moved as (
        update changes_horizon
        set pruned_through = greatest(pruned_through, (select max(id) from gone)),
          begins_at = greatest(begins_at, (select max(at) from gone))
        where exists (select 1 from gone)
      )
      select count(*)::integer as n from gone`);
    const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
    removed += n;
    if (n < PRUNE_BATCH) return removed;
  }
}

/** The channel the feed's triggers notify at commit (migration 0010). */
export const CHANGES_CHANNEL = 'catalogue_changes';
