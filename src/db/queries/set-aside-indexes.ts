/**
 * @module A large bulk import's indexes set aside: the secondary indexes of `books` and `copies` dropped
 * before the load and built again after it, as a restore does, their definitions kept in the job's row
 * (`import_jobs.set_aside_indexes`, migration 0046) from the transaction that drops them to the one that
 * builds each again. Kept: every unique index (primary keys, `books_isbn_key` and `books_record_key`, which
 * matching and uniqueness rest on) and every index a constraint owns; what goes are the listings', the
 * search's and the foreign keys' supporting indexes, which the import's statements do not read. How many of
 * them are built again is the job's `indexes_built` of `indexes_total` (migration 0047), moved with the list.
 */
import { type BulkTransaction, bulkTransaction, driverOf, isPglite } from '../bulk-session.js';
import type { Db } from '../db.js';
import type { ImportJobPhase } from './import-jobs.js';

/** The tables whose indexes a load sets aside. */
const LOADED_TABLES = ['books', 'copies'] as const;

/**
 * `maintenance_work_mem` while an index is built on PostgreSQL: the default 64 MB sorts a million books'
 * keys on disk in several passes; with this much, most build in one. PGlite keeps its default, its memory
 * being the embedding process's.
 */
const BUILD_WORK_MEM = '512MB';

/**
 * How long the drop waits for the tables' exclusive lock: a reader running a long statement keeps it, and
 * every statement after the drop's queued on it waits behind. Past this the load goes on with its indexes.
 */
const DROP_LOCK_TIMEOUT = '5s';

/** A session lock a load holds from its drop to its last build, so that a starting server does not build under it. */
const LOAD_LOCK = 7305415;

export interface SetAsideIndex {
  name: string;
  definition: string;
}

/** The indexes a load would set aside, as they are defined now. */
async function droppable(tx: BulkTransaction): Promise<SetAsideIndex[]> {
  return tx.query<SetAsideIndex>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid in (${LOADED_TABLES.map((t) => `'${t}'::regclass`).join(', ')})
       and not i.indisunique and not i.indisprimary and i.indisvalid
       and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
     order by c.relname`,
  );
}

/**
 * Drops the indexes a load sets aside and records them in job `jobId`'s row, in one transaction; those
 * already recorded (a resumed load) stay recorded. Returns what is set aside now, or `null` when the
 * tables' lock was not had within `DROP_LOCK_TIMEOUT` (the load then goes on with its indexes).
 */
export async function setAsideIndexes(db: Db, jobId: number): Promise<SetAsideIndex[] | null> {
  try {
    return await bulkTransaction(db, async (tx) => {
      // The connection's statement budget is a request's; the wait for the lock has its own.
      await tx.query('set local statement_timeout = 0');
      await tx.query(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
      for (const table of LOADED_TABLES) await tx.query(`lock table ${table} in access exclusive mode`);
      const [row] = await tx.query<{ set_aside_indexes: SetAsideIndex[] | null }>(
        'select set_aside_indexes from import_jobs where id = $1 for update',
        [jobId],
      );
      const recorded = row?.set_aside_indexes ?? [];
      const dropping = await droppable(tx);
      const all = [...recorded, ...dropping.filter((index) => !recorded.some((r) => r.name === index.name))];
      // Every index listed is missing once this commits: none of them built.
      await tx.query(
        'update import_jobs set set_aside_indexes = $2::jsonb, indexes_total = $3, indexes_built = 0 where id = $1',
        [jobId, JSON.stringify(all), all.length],
      );
      for (const { name } of dropping) await tx.query(`drop index ${quoted(name)}`);
      return all;
    });
  } catch (error) {
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return null;
    throw error;
  }
}

const LOCK_NOT_AVAILABLE = '55P03';

/** The indexes job `jobId` has set aside and not built yet. */
export async function setAsideOf(db: Db, jobId: number): Promise<SetAsideIndex[]> {
  return bulkTransaction(db, async (tx) => {
    const [row] = await tx.query<{ set_aside_indexes: SetAsideIndex[] | null }>(
      'select set_aside_indexes from import_jobs where id = $1',
      [jobId],
    );
    return row?.set_aside_indexes ?? [];
  });
}

/**
 * Told as a job's set-aside indexes are built again: when the build begins (`built` as the job's row has it,
 * no `name`) and after each index, with the row's `indexes_built` of `indexes_total`. Awaited: the build goes
 * on when it settles.
 */
export type IndexBuildProgress = (built: number, total: number, name?: string) => void | Promise<void>;

const BUILDING: ImportJobPhase = 'building_indexes';

/**
 * Builds again each index job `jobId` set aside, one transaction each: the index created (or, found
 * invalid, made again) and taken off the job's list together, its `indexes_built` moved with the list, so
 * that a run killed meanwhile leaves listed exactly what is still to build. Run by the job's own run, which
 * is then in the phase `building_indexes`; `restoreSetAsideIndexes` builds another job's without moving
 * its phase (`byItsRun` false).
 */
export async function buildSetAsideIndexes(
  db: Db,
  jobId: number,
  onBuilt?: IndexBuildProgress,
  byItsRun = true,
): Promise<void> {
  const listed = await setAsideOf(db, jobId);
  if (listed.length === 0) return;
  const begun = await bulkTransaction(db, (tx) =>
    // Built is what the total has beyond the list: 0 after a drop, more when a stopped build resumes.
    tx.query<IndexCounts>(
      `update import_jobs set
         phase = case when $2 and state = 'running' then $3 else phase end,
         indexes_total = greatest(indexes_total, jsonb_array_length(set_aside_indexes)),
         indexes_built = greatest(indexes_total, jsonb_array_length(set_aside_indexes)) - jsonb_array_length(set_aside_indexes),
         updated_at = now()
       where id = $1 and set_aside_indexes is not null
       returning ${COUNTS}`,
      [jobId, byItsRun, BUILDING],
    ),
  );
  if (begun[0]) await onBuilt?.(begun[0].built, begun[0].total);
  for (const { name, definition } of listed) {
    const [counts] = await bulkTransaction(db, async (tx) => {
      // A build over millions of books outlasts a request's statement budget (the connection's) by far.
      await tx.query('set local statement_timeout = 0');
      if (!isPglite(driverOf(db))) await tx.query(`set local maintenance_work_mem = '${BUILD_WORK_MEM}'`);
      const [existing] = await tx.query<{ valid: boolean }>(
        'select i.indisvalid as valid from pg_index i where i.indexrelid = to_regclass($1)',
        [quoted(name)],
      );
      if (existing && !existing.valid) await tx.query(`drop index ${quoted(name)}`);
      if (!existing?.valid) await tx.query(definition);
      // The expressions read the row as it was: the count left is the list without this index.
      return tx.query<IndexCounts>(
        `update import_jobs set
           set_aside_indexes = nullif(
             (select coalesce(jsonb_agg(e), '[]') from jsonb_array_elements(set_aside_indexes) e where e->>'name' <> $2),
             '[]'::jsonb),
           indexes_built = greatest(indexes_total -
             (select count(*)::integer from jsonb_array_elements(set_aside_indexes) e where e->>'name' <> $2), 0),
           updated_at = now()
         where id = $1
         returning ${COUNTS}`,
        [jobId, name],
      );
    });
    if (counts) await onBuilt?.(counts.built, counts.total, name);
  }
}

interface IndexCounts {
  built: number;
  total: number;
}

const COUNTS = 'indexes_built as built, indexes_total as total';

/** Jobs whose set-aside indexes are not all built again (a load killed, or failed, before the end). */
export async function jobsWithIndexesSetAside(db: Db): Promise<number[]> {
  return bulkTransaction(db, async (tx) =>
    (await tx.query<{ id: number }>('select id from import_jobs where set_aside_indexes is not null order by id')).map(
      (row) => row.id,
    ),
  );
}

/**
 * Runs `work` holding the load lock, on PostgreSQL a session lock on a connection of its own for `work`'s
 * length; `null` without running it when another process holds it. PGlite is one process's: no lock.
 */
export async function withLoadLock<T>(db: Db, work: () => Promise<T>): Promise<T | null> {
  const client = driverOf(db);
  if (isPglite(client)) return work();
  const session = await client.reserve();
  try {
    const [got] = await session<{ locked: boolean }[]>`select pg_try_advisory_lock(${LOAD_LOCK}) as locked`;
    if (!got?.locked) return null;
    try {
      return await work();
    } finally {
      await session`select pg_advisory_unlock(${LOAD_LOCK})`;
    }
  } finally {
    session.release();
  }
}

/**
 * Builds every index a load set aside and did not build again (at a server's start, or before another
 * file's import; `except` a job whose own run builds them), unless a load is running (it builds them at its end).
 */
export async function restoreSetAsideIndexes(db: Db, onBuilt?: IndexBuildProgress, except?: number): Promise<void> {
  const jobs = (await jobsWithIndexesSetAside(db)).filter((id) => id !== except);
  if (jobs.length === 0) return;
  await withLoadLock(db, async () => {
    for (const job of jobs) await buildSetAsideIndexes(db, job, onBuilt, false);
  });
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
