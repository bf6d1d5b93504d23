/**
 * @module Bulk import jobs (`import_jobs`, migration 0040): a run of a file started or resumed by its hash,
 * its high-water mark moved with each batch, finished or failed; and what its resource and report read.
 */
import { sql } from 'drizzle-orm';
import { type ImportReport, REPORT_ENTRIES_PER_OUTCOME, type RecordOutcome } from '../../domain/imports/report.js';
import type { BulkTransaction } from '../bulk-session.js';
import { type Db, rowsOf } from '../db.js';

export type ImportJobState = 'running' | 'done' | 'failed';

/**
 * What the job's own run is doing (migration 0047): `starting` (the job taken, before its records: a stopped
 * load's indexes built first, the tables' indexes set aside), `writing_records` (`processed` of `total`),
 * `building_indexes` (`indexes_built` of `indexes_total`), `finished` once `done`. A failed or stopped job
 * keeps the phase it stopped in.
 */
export type ImportJobPhase = 'starting' | 'writing_records' | 'building_indexes' | 'finished';

/** Outcomes counted so far. */
export interface ImportJobCounts {
  imported: number;
  matched: number;
  refused: number;
}

export interface ImportJob extends ImportJobCounts {
  id: number;
  file_sha256: string;
  source: string | null;
  media_type: string;
  state: ImportJobState;
  phase: ImportJobPhase;
  /** Records in the file, counted before the import; `null` when they could not be. */
  total: number | null;
  /** Records 1 to `processed` are written (the high-water mark). */
  processed: number;
  authors_created: number;
  /** Secondary indexes set aside for the load that are built again, of those set aside (0 of 0: none). */
  indexes_built: number;
  indexes_total: number;
  /** How many times the file was run: more than 1 when a run was interrupted and resumed. */
  runs: number;
  error: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

const JOB_COLUMNS = sql.raw(`id, file_sha256, source, media_type, state, phase, total, processed, imported, matched,
  refused, authors_created, indexes_built, indexes_total, runs, error, started_at, updated_at, finished_at`);

/**
 * The unfinished job of this file and source, resumed (one more run), or a new one. The partial unique index
 * `import_jobs_running_key` makes two runs that start at once take the same row.
 */
export async function startImportJob(
  db: Db,
  params: { sha256: string; source: string | null; mediaType: string; total: number | null },
): Promise<ImportJob> {
  const [job] = rowsOf<ImportJob>(
    await db.execute(sql`
      insert into import_jobs (file_sha256, source, media_type, total)
      values (${params.sha256}, ${params.source}, ${params.mediaType}, ${params.total})
      on conflict (file_sha256, coalesce(source, '')) where state = 'running'
      do update set runs = import_jobs.runs + 1, phase = 'starting', updated_at = now()
      returning ${JOB_COLUMNS}`),
  );
  return normalized(job as ImportJob);
}

export async function findImportJob(db: Db, id: number): Promise<ImportJob | undefined> {
  const [job] = rowsOf<ImportJob>(await db.execute(sql`select ${JOB_COLUMNS} from import_jobs where id = ${id}`));
  return job && normalized(job);
}

/** Job `id`'s run goes on to `phase`, while it runs. */
export async function enterImportPhase(db: Db, id: number, phase: ImportJobPhase): Promise<void> {
  await db.execute(
    sql`update import_jobs set phase = ${phase}, updated_at = now() where id = ${id} and state = 'running'`,
  );
}

/** Ends a job: `done` (its phase `finished`), or `failed` with the reason, in the phase it failed in. */
export async function endImportJob(db: Db, id: number, error?: string): Promise<ImportJob | undefined> {
  const [job] = rowsOf<ImportJob>(
    await db.execute(sql`
      update import_jobs set state = ${error === undefined ? 'done' : 'failed'}, error = ${error ?? null},
        phase = case when ${error === undefined} then 'finished' else phase end,
        finished_at = now(), updated_at = now(), total = case when ${error === undefined} then processed else total end
      where id = ${id} and state = 'running'
      returning ${JOB_COLUMNS}`),
  );
  return job && normalized(job);
}

/**
 * In a batch's transaction, its row locked: the mark moved from `from` over the batch, the counts added, and
 * the outcomes the report lists kept.
 */
export async function moveJobMark(
  tx: BulkTransaction,
  jobId: number,
  from: number,
  written: { outcomes: RecordOutcome[]; authorsCreated: number },
  counts: ImportJobCounts,
  listed: (counts: ImportJobCounts, outcome: RecordOutcome) => boolean,
): Promise<void> {
  const added: ImportJobCounts = { imported: 0, matched: 0, refused: 0 };
  const kept: object[] = [];
  for (const outcome of written.outcomes) {
    added[outcome.status] += 1;
    const sofar = { ...counts, [outcome.status]: counts[outcome.status] + added[outcome.status] };
    if (!listed(sofar, outcome)) continue;
    kept.push({
      number: outcome.number,
      status: outcome.status,
      book_id: 'book_id' in outcome ? outcome.book_id : null,
      matched_by: outcome.status === 'matched' ? outcome.matched_by : null,
      reason: outcome.status === 'refused' ? outcome.reason : null,
    });
  }
  await tx.query(
    `update import_jobs set processed = processed + $3, imported = imported + $4, matched = matched + $5,
       refused = refused + $6, authors_created = authors_created + $7, updated_at = now(),
       total = case when total is null then null else greatest(total, processed + $3) end
     where id = $1 and processed = $2`,
    [jobId, from, written.outcomes.length, added.imported, added.matched, added.refused, written.authorsCreated],
  );
  if (kept.length > 0) {
    await tx.query(
      `insert into import_job_entries (job_id, number, status, book_id, matched_by, reason)
       select $1, e.number, e.status, e.book_id, e.matched_by, e.reason
       from jsonb_to_recordset($2::jsonb) as e(number integer, status text, book_id integer, matched_by text, reason text)`,
      [jobId, JSON.stringify(kept)],
    );
  }
}

/** Whether the report lists an outcome, its count (this one included) given: the first 1,000 of each. */
export function listedInReport(counts: ImportJobCounts, outcome: RecordOutcome): boolean {
  return counts[outcome.status] <= REPORT_ENTRIES_PER_OUTCOME;
}

/** The whole file's report, across its runs: the job's counts and the outcomes it kept, books' titles as they are. */
export async function importJobReport(db: Db, job: ImportJob): Promise<ImportReport> {
  const rows = rowsOf<{
    number: number;
    status: RecordOutcome['status'];
    book_id: number | null;
    matched_by: 'isbn' | 'control_number' | null;
    reason: string | null;
    title: string | null;
  }>(
    await db.execute(sql`
      select e.number, e.status, e.book_id, e.matched_by, e.reason, b.title
      from import_job_entries e left join books b on b.id = e.book_id
      where e.job_id = ${job.id}
      order by e.number`),
  );
  const entries: RecordOutcome[] = rows.map((row) => {
    const number = Number(row.number);
    if (row.status === 'refused') return { number, status: 'refused', reason: row.reason ?? '' };
    const book = { book_id: Number(row.book_id), title: row.title ?? '' };
    return row.status === 'imported'
      ? { number, status: 'imported', ...book }
      : { number, status: 'matched', ...book, matched_by: row.matched_by ?? 'isbn' };
  });
  return {
    records: job.processed,
    imported: job.imported,
    matched: job.matched,
    refused: job.refused,
    authors_created: job.authors_created,
    entries,
    truncated: [job.imported, job.matched, job.refused].some((n) => n > REPORT_ENTRIES_PER_OUTCOME),
  };
}

/** postgres.js answers `bigint`-free rows as numbers already; PGlite too, but dates differ: both as ISO text. */
function normalized(job: ImportJob): ImportJob {
  const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null));
  return {
    ...job,
    started_at: iso(job.started_at) as string,
    updated_at: iso(job.updated_at) as string,
    finished_at: iso(job.finished_at),
  };
}
