/**
 * @module `catalogue import FILE`: a MARCXML, ISO 2709 or CSV file imported in bulk (imports/bulk-import.ts:
 * the checks and matching of `POST /imports`, written through `COPY` in large batches, resumable after a
 * crash by running the same file again), with no size or time limit, and its report printed as an operator
 * reads it.
 */
import { statSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { RECORD_KEY_MAX_LENGTH } from '../domain/imports/candidate.js';
import { importFilesDescribed } from '../domain/imports/media-types.js';
import { type ImportReport, REPORT_ENTRIES_PER_OUTCOME } from '../domain/imports/report.js';
import { type IndexMode, LOAD_MIN_RECORDS, runBulkImport } from '../imports/bulk-import.js';
import { formatOfFileName, formatOfMediaType, type ImportFormat, importMediaTypes } from '../imports/formats.js';
import { progressBar } from '../progress.js';
import { UsageError } from './arguments.js';
import { print, withDatabase } from './database.js';

export function addImportCommand(program: Command): void {
  program
    .command('import')
    .description('import bibliographic records from a file; a record already catalogued is matched, not doubled')
    .argument('<file>', `the file: ${importFilesDescribed}`)
    .option('--type <media-type>', `the file's media type when its name does not tell it`, importFormat)
    .option('--source <code>', 'the MARC organization code of control numbers in records without an 003', source)
    .option(
      '--indexes <when>',
      'rebuild: drop the secondary indexes of books and copies for the load and build them after it (readers ' +
        'run without them meanwhile); keep: never; auto: rebuild when the file holds at least ' +
        `${LOAD_MIN_RECORDS.toLocaleString('en')} records and at least as many as the catalogue holds books`,
      indexMode,
      'auto',
    )
    .action(async (file: string, options: { type?: ImportFormat; source?: string; indexes: IndexMode }) => {
      // The file is checked before the database is opened, so that a typo changes nothing.
      const format = options.type ?? formatOfFileName(file);
      if (!format) {
        throw new UsageError(
          `cannot tell the format of ${file} by its name: name it with --type (${importMediaTypes.join(', ')})`,
        );
      }
      fileSize(file);
      await withDatabase(async (db) => {
        const progress = progressBar(process.stderr);
        let told = false;
        const { job, resumedAfter, report } = await runBulkImport(db, file, {
          format,
          source: options.source,
          indexes: options.indexes,
          onIndexes: ({ phase, done, total }) => {
            if (phase === 'built') return progress.update({ phase: 'indexes built', done, total });
            progress.done();
            process.stderr.write(
              phase === 'set aside'
                ? `${total} secondary indexes of books and copies set aside for the load; built again after it\n`
                : 'the indexes are kept: books or copies are in use (their lock was not had within 5 s)\n',
            );
          },
          onProgress: ({ job, processed, total }) => {
            if (!told) process.stderr.write(`import job ${job}: its progress is GET /imports/${job}\n`);
            told = true;
            progress.update({ phase: 'records', done: processed, total: total ?? processed });
          },
        });
        progress.done();
        if (resumedAfter > 0) {
          print(
            `import job ${job.id} resumed after record ${resumedAfter.toLocaleString('en')}, where a run had stopped`,
          );
        }
        print(importSummary(report));
      });
    });
}

function importFormat(value: string): ImportFormat {
  const format = formatOfMediaType(value);
  if (!format) throw new InvalidArgumentError(`It must be one of ${importMediaTypes.join(', ')}.`);
  return format;
}

function indexMode(value: string): IndexMode {
  if (value === 'auto' || value === 'rebuild' || value === 'keep') return value;
  throw new InvalidArgumentError('It must be auto, rebuild or keep.');
}

function source(value: string): string | undefined {
  const code = value.trim() || undefined;
  if (code !== undefined && code.length > RECORD_KEY_MAX_LENGTH) {
    throw new InvalidArgumentError(`It must be at most ${RECORD_KEY_MAX_LENGTH} characters.`);
  }
  return code;
}

function fileSize(file: string): number {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  if (!stats.isFile()) throw new UsageError(`${file} is not a file`);
  return stats.size;
}

/** The report as an operator reads it: the counts, then each record refused and why. */
function importSummary(report: ImportReport): string {
  const lines = [
    `${report.records} records: ${report.imported} imported, ${report.matched} matched, ${report.refused} refused; ` +
      `${report.authors_created} authors created`,
  ];
  for (const entry of report.entries) {
    if (entry.status === 'refused') lines.push(`record ${entry.number}: refused: ${entry.reason}`);
  }
  if (report.truncated) lines.push(`(the first ${REPORT_ENTRIES_PER_OUTCOME} of each outcome are listed)`);
  return lines.join('\n');
}
