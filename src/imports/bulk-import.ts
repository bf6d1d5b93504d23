/**
 * @module A bulk import of a whole collection from a file: the file hashed first (its SHA-256 names its job,
 * `import_jobs`), then read as it streams, checked as any import, and written in batches of thousands
 * through `COPY` into a staging table and set-based statements (db/queries/bulk-import.ts), the job's
 * high-water mark moved in each batch's transaction. A run killed at any point is finished by running the
 * same file again: the records up to the mark are read and skipped, the rest written. While one batch is
 * written the next is read, so that the parsing here and the database's work overlap.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Db } from '../db/client.js';
import { type BatchRecord, writeBulkBatch } from '../db/queries/bulk-import.js';
import {
  endImportJob,
  type ImportJob,
  importJobReport,
  listedInReport,
  startImportJob,
} from '../db/queries/import-jobs.js';
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

export interface BulkImportOptions {
  format: ImportFormat;
  source?: string | undefined;
  onProgress?: (progress: BulkProgress) => void;
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
  const { format, onProgress } = options;
  const batchSize = options.batchSize ?? BULK_BATCH_SIZE;
  const { sha256, total } = await surveyFile(file, format);
  const job = await startImportJob(db, {
    sha256,
    source: options.source ?? null,
    mediaType: format.mediaType,
    total,
  });
  const resumedAfter = job.processed;
  let mark = job.processed;
  let number = 0;
  let batch: BatchRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  onProgress?.({ job: job.id, processed: mark, total });

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
  const ended = (await endImportJob(db, job.id)) ?? job;
  return { job: ended, resumedAfter, report: await importJobReport(db, ended) };
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
