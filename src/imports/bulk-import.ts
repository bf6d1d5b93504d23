/**
 * @module A bulk import of a whole collection from a file: the file hashed first (its SHA-256 names its job,
 * `import_jobs`), then read as it streams, checked as any import, and written in batches of thousands
 * through `COPY` into a staging table and set-based statements (db/queries/bulk-import.ts), the job's
 * high-water mark moved in each batch's transaction. A run killed at any point is finished by running the
 * same file again: the records up to the mark are read and skipped, the rest written. While one batch is
 * written the next is read, so that the parsing here and the database's work overlap. A file large against
 * the catalogue is loaded with the secondary indexes set aside and built after it (`IndexMode`,
 * db/queries/set-aside-indexes.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { bulkTransaction } from '../db/bulk-session.js';
import type { Db } from '../db/client.js';
import { type BatchRecord, writeBulkBatch } from '../db/queries/bulk-import.js';
import {
  endImportJob,
  enterImportPhase,
  type ImportJob,
  importJobReport,
  listedInReport,
  startImportJob,
} from '../db/queries/import-jobs.js';
import {
  buildSetAsideIndexes,
  type IndexBuildProgress,
  restoreSetAsideIndexes,
  setAsideIndexes,
  setAsideOf,
  withLoadLock,
} from '../db/queries/set-aside-indexes.js';
import { InvalidInput } from '../domain/errors.js';
import { checkRecord } from '../domain/imports/candidate.js';
import type { ImportReport } from '../domain/imports/report.js';
import type { ImportFormat } from './formats.js';

/** Records per batch transaction: each statement carries thousands, and a batch's memory stays a few MiB. */
export const BULK_BATCH_SIZE = 5000;

export interface BulkProgress {
  job: number;
  /** Records written (the job's mark), this run's and earlier runs'. */
  processed: number;
  /** Records in the file, or `null` when they could not be counted beforehand. */
  total: number | null;
}

/**
 * Whether a run sets the secondary indexes of `books` and `copies` aside for its load and builds them after
 * it: `rebuild` always, `keep` never, `auto` when the records still to write are at least
 * `LOAD_MIN_RECORDS` and at least as many as the books held (a first load, or one that doubles the
 * catalogue), or when a killed run of the same file had them set aside.
 */
export type IndexMode = 'auto' | 'rebuild' | 'keep';

/** Below this, building the indexes again costs more than keeping them up to date saves. */
export const LOAD_MIN_RECORDS = 100_000;

/** The indexes' part of a run: set aside before the records, built again after them. */
export interface IndexProgress {
  /**
   * `kept` when the tables' lock was not had in time: the load goes on with its indexes. `built`: `done` of
   * `total` built again, as the job's resource has them (`indexes_built`, `indexes_total`), told when the
   * build begins and after each index.
   */
  phase: 'set aside' | 'kept' | 'built';
  done: number;
  total: number;
}

export interface BulkImportOptions {
  format: ImportFormat;
  source?: string | undefined;
  /** Told when the records begin and after each batch; awaited, as `onIndexes` is: the run waits for it. */
  onProgress?: (progress: BulkProgress) => void | Promise<void>;
  /** `auto` unless said. */
  indexes?: IndexMode | undefined;
  onIndexes?: (progress: IndexProgress) => void | Promise<void>;
  /** Records per batch (tests use small ones). */
  batchSize?: number;
}

export interface BulkImportResult {
  job: ImportJob;
  /** The record this run started after: 0 for a first run, the mark of the run it resumed otherwise. */
  resumedAfter: number;
  /** The whole file's report, across runs. */
  report: ImportReport;
}

export async function runBulkImport(db: Db, file: string, options: BulkImportOptions): Promise<BulkImportResult> {
  const { sha256, total } = await surveyFile(file, options.format);
  const job = await startImportJob(db, {
    sha256,
    source: options.source ?? null,
    mediaType: options.format.mediaType,
    total,
  });
  // Another file's load killed before its end: its indexes are built first, whatever this run does.
  await restoreSetAsideIndexes(db, built(options), job.id);
  if (await loads(db, job, total, options.indexes ?? 'auto')) {
    const loaded = await withLoadLock(db, async () => {
      const setAside = await setAsideIndexes(db, job.id);
      const count = setAside?.length ?? 0;
      await options.onIndexes?.({ phase: setAside ? 'set aside' : 'kept', done: count, total: count });
      let written: Awaited<ReturnType<typeof importRecords>>;
      try {
        written = await importRecords(db, file, job, total, options);
      } catch (error) {
        // A file that breaks partway ends its job: nothing would resume it, so its indexes are built now.
        // Any other failure leaves them listed for the same file's next run, or the server's start.
        if (error instanceof InvalidInput) await buildSetAsideIndexes(db, job.id, built(options));
        throw error;
      }
      // Built even when the drop did not get its lock (`setAside` null): a killed run's may be listed.
      await buildSetAsideIndexes(db, job.id, built(options));
      return written;
    });
    if (loaded !== null) return finish(db, loaded);
  }
  // Without the lock (another process is loading) or without a load: a resumed run's indexes are built first.
  await buildSetAsideIndexes(db, job.id, built(options));
  return finish(db, await importRecords(db, file, job, total, options));
}

function built(options: BulkImportOptions): IndexBuildProgress {
  return (done, total) => options.onIndexes?.({ phase: 'built', done, total });
}

/** Whether this run loads with the indexes set aside (`IndexMode`). */
async function loads(db: Db, job: ImportJob, total: number | null, mode: IndexMode): Promise<boolean> {
  if (mode !== 'auto') return mode === 'rebuild';
  if ((await setAsideOf(db, job.id)).length > 0) return true;
  const toWrite = total === null ? 0 : total - job.processed;
  if (toWrite < LOAD_MIN_RECORDS) return false;
  // Counted, not estimated (`reltuples` is -1 until the table's first analyze), and past a request's
  // statement budget: tens of millions of books take seconds.
  const held = await bulkTransaction(db, async (tx) => {
    await tx.query('set local statement_timeout = 0');
    const [row] = await tx.query<{ n: number }>('select count(*)::integer as n from books');
    return row?.n ?? 0;
  });
  return toWrite >= held;
}

async function finish(db: Db, { job, resumedAfter }: { job: ImportJob; resumedAfter: number }) {
  const ended = (await endImportJob(db, job.id)) ?? job;
  return { job: ended, resumedAfter, report: await importJobReport(db, ended) };
}

/** The file's records after the job's mark, written batch by batch. */
async function importRecords(
  db: Db,
  file: string,
  job: ImportJob,
  total: number | null,
  options: BulkImportOptions,
): Promise<{ job: ImportJob; resumedAfter: number }> {
  const { format, onProgress } = options;
  const batchSize = options.batchSize ?? BULK_BATCH_SIZE;
  const resumedAfter = job.processed;
  let mark = job.processed;
  let number = 0;
  let batch: BatchRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  await enterImportPhase(db, job.id, 'writing_records');
  await onProgress?.({ job: job.id, processed: mark, total });

  const flush = async () => {
    if (batch.length === 0) return;
    const records = batch;
    batch = [];
    // One batch in flight: the previous one is committed before this one starts, and its mark is where
    // this one begins.
    await writing;
    const from = mark;
    mark += records.length;
    writing = writeBulkBatch(db, job.id, from, records, listedInReport).then(() =>
      onProgress?.({ job: job.id, processed: from + records.length, total }),
    );
    // Seen when awaited; meanwhile, no unhandled rejection.
    writing.catch(() => {});
  };

  try {
    for await (const read of format.read(createReadStream(file), { source: options.source })) {
      number += 1;
      if (number <= resumedAfter) continue;
      const checked = 'reason' in read ? read : checkRecord(read);
      batch.push('reason' in checked ? { number, refused: checked.reason } : { number, candidate: checked });
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await writing;
  } catch (error) {
    await writing.catch(() => {});
    if (error instanceof InvalidInput) {
      await endImportJob(db, job.id, error.message);
      throw new InvalidInput(
        `${error.message} (the ${mark} records read before that point are written; importing the corrected file matches them)`,
        error.details,
      );
    }
    throw error;
  }
  return { job, resumedAfter };
}

/**
 * The file's SHA-256, and its records counted on the way where its format lets bytes tell them: ISO 2709's
 * record terminators, MARCXML's closing `record` tags, a CSV's lines after the header (a quoted field over
 * several lines counts more than once; the count is then raised as records are read).
 */
async function surveyFile(file: string, format: ImportFormat): Promise<{ sha256: string; total: number | null }> {
  const hash = createHash('sha256');
  const counter = recordCounter(format.mediaType);
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    counter.add(chunk);
  }
  return { sha256: hash.digest('hex'), total: counter.total() };
}

function recordCounter(mediaType: ImportFormat['mediaType']): { add(chunk: Buffer): void; total(): number } {
  if (mediaType === 'application/marc') return byteCounter(Buffer.from([0x1d]), 0);
  if (mediaType === 'text/csv') return byteCounter(Buffer.from('\n'), -1);
  // `</record>` or `</marc:record>` (any prefix ends `:record>`).
  const plain = byteCounter(Buffer.from('</record>'), 0);
  const prefixed = byteCounter(Buffer.from(':record>'), 0);
  return {
    add(chunk) {
      plain.add(chunk);
      prefixed.add(chunk);
    },
    // An opening `<marc:record>` ends `:record>` too: half of the prefixed ones close.
    total: () => plain.total() + Math.floor(prefixed.total() / 2),
  };
}

/** Counts `needle` in a stream of chunks, matches across chunk boundaries included. */
function byteCounter(needle: Buffer, offset: number): { add(chunk: Buffer): void; total(): number } {
  let count = 0;
  let tail = Buffer.alloc(0);
  return {
    add(chunk) {
      const joined = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      for (let at = joined.indexOf(needle); at !== -1; at = joined.indexOf(needle, at + needle.length)) count += 1;
      // Keep what could begin a match that the next chunk completes, and nothing of a match counted.
      tail = Buffer.from(joined.subarray(Math.max(0, joined.length - needle.length + 1)));
    },
    total: () => Math.max(0, count + offset),
  };
}
