/**
 * @module An import from start to end: the file read record by record as it streams in, each record
 * checked, the checked ones written a batch at a time, every outcome noted in the report. The file is
 * never held whole: at most a batch of records and the chunk being read are.
 */
import type { Db } from '../db/client.js';
import { type NumberedCandidate, writeImportBatch } from '../db/queries/imports.js';
import { InvalidInput } from '../domain/errors.js';
import { checkRecord } from '../domain/imports/candidate.js';
import type { ReadOptions } from '../domain/imports/reader.js';
import { emptyReport, type ImportReport, note, type RecordOutcome } from '../domain/imports/report.js';
import type { ImportFormat } from './formats.js';

/** Records written per transaction: large enough that a statement carries many, small enough that the feed's lock is held briefly. */
const IMPORT_BATCH_SIZE = 500;

export interface ImportProgress {
  /** Bytes of the file read so far. */
  bytes: number;
  /** Records read so far. */
  records: number;
}

export interface ImportOptions extends ReadOptions {
  format: ImportFormat;
  onProgress?: (progress: ImportProgress) => void;
}

export async function runImport(
  db: Db,
  body: AsyncIterable<Uint8Array>,
  options: ImportOptions,
): Promise<ImportReport> {
  const { format, onProgress } = options;
  const report = emptyReport();
  const progress: ImportProgress = { bytes: 0, records: 0 };
  let pending: NumberedCandidate[] = [];
  let refusedMeanwhile: RecordOutcome[] = [];

  /** Writes what is pending and notes every outcome since the last batch in file order. */
  const flush = async () => {
    const written = pending.length > 0 ? await writeImportBatch(db, pending) : { outcomes: [], authorsCreated: 0 };
    report.authors_created += written.authorsCreated;
    const outcomes = [...written.outcomes, ...refusedMeanwhile].sort((a, b) => a.number - b.number);
    for (const outcome of outcomes) note(report, outcome);
    pending = [];
    refusedMeanwhile = [];
    onProgress?.(progress);
  };

  try {
    for await (const read of format.read(counted(body, progress), options)) {
      const number = ++report.records;
      progress.records = number;
      const checked = 'reason' in read ? read : checkRecord(read);
      if ('reason' in checked) refusedMeanwhile.push({ number, status: 'refused', reason: checked.reason });
      else pending.push({ number, candidate: checked });
      if (pending.length + refusedMeanwhile.length >= IMPORT_BATCH_SIZE) await flush();
    }
  } catch (error) {
    // A file that breaks partway is refused from there; the batches written before it stay, and say so.
    if (error instanceof InvalidInput && report.imported > 0) {
      throw new InvalidInput(
        `${error.message} (the ${report.imported} records imported before that point stay; ` +
          'importing the corrected file matches them)',
        error.details,
      );
    }
    throw error;
  }
  await flush();
  return report;
}

/** The body, its bytes counted as they pass. */
async function* counted(body: AsyncIterable<Uint8Array>, progress: ImportProgress): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    progress.bytes += chunk.byteLength;
    yield chunk;
  }
}
