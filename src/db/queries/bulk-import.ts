/**
 * @module Writing a batch of a bulk import, set-based: the batch copied (`COPY`) into a staging table of the
 * transaction, matched with the books held by two joins, its authors found or created and its books inserted
 * by one `INSERT … SELECT` each, and the job's high-water mark moved in the same transaction, so that a batch
 * is written and counted, or neither. The outcomes are those of `writeImportBatch` (imports.ts): the same
 * matching by ISBN, else by record key, the same repeats within a batch, the same authors by name.
 */
import type { ImportCandidate } from '../../domain/imports/candidate.js';
import type { RecordOutcome } from '../../domain/imports/report.js';
import { type BulkTransaction, bulkTransaction } from '../bulk-session.js';
import type { Db } from '../db.js';
import { constraintViolation } from '../errors.js';
import { type ImportJobCounts, moveJobMark } from './import-jobs.js';
import { IMPORT_LOCK, type NumberedCandidate, refusalOf } from './imports.js';

/** One record of a batch: checked and to be written, or already refused by the checks. */
export type BatchRecord = NumberedCandidate | { number: number; refused: string };

/** A batch's records were already written by another run of the same job (its mark is not where this run left it). */
export class JobMarkMoved extends Error {}

/**
 * A statement of a batch of thousands of rows may outlast a request's time budget (the connection's
 * `statement_timeout`); a bulk batch has its own.
 */
const BATCH_STATEMENT_TIMEOUT = '120s';

const STAGING_COLUMNS = [
  'number',
  'title',
  'publication_year',
  'author_id',
  'author_name',
  'isbn',
  'language',
  'subjects',
  'publisher',
  'record_source',
  'record_control_number',
] as const;

/**
 * Writes records `from + 1` to `from + batch.length` of job `jobId` and moves its mark there, in one
 * transaction; refuses with `JobMarkMoved` if the mark is not at `from`. `listed` says which outcomes the
 * report keeps (`import_job_entries`).
 */
export async function writeBulkBatch(
  db: Db,
  jobId: number,
  from: number,
  batch: readonly BatchRecord[],
  listed: (counts: ImportJobCounts, outcome: RecordOutcome) => boolean,
): Promise<{ outcomes: RecordOutcome[]; authorsCreated: number }> {
  const attempt = (oneByOne: boolean) =>
    bulkTransaction(db, async (tx) => {
      await tx.query(`set local statement_timeout = '${BATCH_STATEMENT_TIMEOUT}'`);
      // This transaction writes the books' search columns itself (below): their row trigger stands aside.
      await tx.query(`select set_config('catalogue.bulk_load', 'on', true)`);
      await tx.query(`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
      const [job] = await tx.query<ImportJobCounts & { processed: number }>(
        'select processed, imported, matched, refused from import_jobs where id = $1 for update',
        [jobId],
      );
      if (!job || job.processed !== from) {
        throw new JobMarkMoved(
          `another run is importing this file: import job ${jobId} has written ${job?.processed ?? 0} records, ` +
            `this run expected ${from}; run the file again once the other has stopped`,
        );
      }
      const written = await writeRecords(tx, batch, oneByOne);
      await moveJobMark(tx, jobId, from, written, job, listed);
      return written;
    });
  try {
    return await attempt(false);
  } catch (error) {
    if (!constraintViolation(error)) throw error;
  }
  // Something broke a rule the checks did not know of (an ISBN another writer took meanwhile): the batch
  // again, each book inserted in a savepoint, so that only the record at fault is refused.
  return attempt(true);
}

async function writeRecords(
  tx: BulkTransaction,
  batch: readonly BatchRecord[],
  oneByOne: boolean,
): Promise<{ outcomes: RecordOutcome[]; authorsCreated: number }> {
  const outcomes = new Map<number, RecordOutcome>();
  const candidates = new Map<number, ImportCandidate>();
  for (const record of batch) {
    if ('refused' in record)
      outcomes.set(record.number, { number: record.number, status: 'refused', reason: record.refused });
    else candidates.set(record.number, record.candidate);
  }
  let authorsCreated = 0;
  if (candidates.size > 0) {
    await tx.query(`create temp table import_staging (
      number integer primary key, title text not null, publication_year integer not null, author_id integer,
      author_name text, isbn text, language text, subjects text[] not null, publisher text,
      record_source text, record_control_number text) on commit drop`);
    await tx.copyIn('import_staging', STAGING_COLUMNS, copyText(candidates));
    // Without statistics the planner takes the staging table for a large one and reads books whole. Only
    // the columns the batch's statements join on: the titles' and subjects' statistics cost most to gather.
    await tx.query(
      'analyze import_staging (number, isbn, record_source, record_control_number, author_id, author_name)',
    );
    const { fresh, repeats } = await matchAndFindRepeats(tx, candidates, outcomes);
    authorsCreated = await writeFresh(tx, fresh, candidates, outcomes, oneByOne);
    for (const { number, of, by } of repeats) {
      const first = outcomes.get(of) as RecordOutcome;
      outcomes.set(
        number,
        first.status === 'refused'
          ? { number, status: 'refused', reason: first.reason }
          : { number, status: 'matched', book_id: first.book_id, title: first.title, matched_by: by },
      );
    }
  }
  const ordered = batch.map(({ number }) => outcomes.get(number) as RecordOutcome);
  return { outcomes: ordered, authorsCreated };
}

/**
 * Matches the batch with the books held, then its records with each other in file order: a record that
 * repeats an earlier one's ISBN or key matches the book that one creates. Returns the records to create.
 */
async function matchAndFindRepeats(
  tx: BulkTransaction,
  candidates: Map<number, ImportCandidate>,
  outcomes: Map<number, RecordOutcome>,
): Promise<{ fresh: number[]; repeats: Repeat[] }> {
  // Two joins, each an index probe per staged row (`books_isbn_key`, `books_record_key`).
  const held = await tx.query<{ number: number; id: number; title: string; by: 'isbn' | 'control_number' }>(`
    select s.number, b.id, b.title, 'isbn' as by
    from import_staging s join books b on b.isbn = s.isbn
    where s.isbn is not null and b.isbn is not null
    union all
    select s.number, b.id, b.title, 'control_number' as by
    from import_staging s join books b on b.record_source = s.record_source and b.record_control_number = s.record_control_number
    where s.record_control_number is not null and b.record_control_number is not null`);
  const heldOf = new Map<number, (typeof held)[number]>();
  for (const row of held) {
    if (row.by === 'isbn' || !heldOf.has(row.number)) heldOf.set(row.number, row);
  }
  const fresh: number[] = [];
  const firstByIsbn = new Map<string, number>();
  const firstByKey = new Map<string, number>();
  const repeats: Repeat[] = [];
  for (const [number, { isbn, key }] of candidates) {
    const match = heldOf.get(number);
    if (match) {
      outcomes.set(number, { number, status: 'matched', book_id: match.id, title: match.title, matched_by: match.by });
      continue;
    }
    const recordKey = key && JSON.stringify([key.source, key.controlNumber]);
    const earlier = (isbn && firstByIsbn.get(isbn)) ?? (recordKey && firstByKey.get(recordKey));
    if (typeof earlier === 'number') {
      repeats.push({ number, of: earlier, by: isbn && firstByIsbn.has(isbn) ? 'isbn' : 'control_number' });
      continue;
    }
    if (isbn) firstByIsbn.set(isbn, number);
    if (recordKey) firstByKey.set(recordKey, number);
    fresh.push(number);
  }
  return { fresh, repeats };
}

/** A record that repeats an earlier one of its batch (`of`), settled once that one is written. */
interface Repeat {
  number: number;
  of: number;
  by: 'isbn' | 'control_number';
}

/** Creates the batch's new books (and their new authors); returns how many authors it created. */
async function writeFresh(
  tx: BulkTransaction,
  fresh: number[],
  candidates: Map<number, ImportCandidate>,
  outcomes: Map<number, RecordOutcome>,
  oneByOne: boolean,
): Promise<number> {
  await tx.query('delete from import_staging where not (number = any($1::integer[]))', [fresh]);
  // An `author_id` that names nobody, refused as `POST /books` refuses it.
  const unknownAuthors = await tx.query<{ number: number; author_id: number }>(`
    delete from import_staging s
    where s.author_id is not null and not exists (select 1 from authors a where a.id = s.author_id)
    returning s.number, s.author_id`);
  for (const { number, author_id } of unknownAuthors) {
    outcomes.set(number, { number, status: 'refused', reason: `bad author: no author ${author_id}` });
  }
  // Authors by `catalogue_name_key` (`authors_name_key_idx`), the oldest of several; names of one key in
  // the batch make one author, named as the first of them is written. The key is taken once per name, not
  // per record: a batch names far fewer authors than it has books.
  const [authors] = await tx.query<{ created: number }>(`
    with keyed as (
      select name, catalogue_name_key(name) as key
      from (select distinct author_name as name from import_staging where author_id is null) as names
    ),
    wanted as (
      select distinct on (k.key) k.key, s.author_name as name
      from import_staging s join keyed k on k.name = s.author_name
      where s.author_id is null
      order by k.key, s.number
    ),
    found as (
      select distinct on (w.key) w.key, a.id
      from wanted w join authors a on catalogue_name_key(a.name) = w.key
      order by w.key, a.id
    ),
    created as (
      insert into authors (name)
      select w.name from wanted w where not exists (select 1 from found f where f.key = w.key)
      returning id, catalogue_name_key(name) as key
    ),
    ids as (select key, id from found union all select key, id from created),
    named as (
      update import_staging s set author_id = ids.id
      from keyed k join ids on ids.key = k.key
      where s.author_id is null and s.author_name = k.name
      returning 1
    )
    select (select count(*) from created)::integer as created, (select count(*) from named)::integer as named`);
  // What `books_search_refresh` writes for a book, for the batch at once: its author's name, held FOR SHARE
  // until commit so that a rename waits and then refreshes these books too, and its search vector. An author
  // deleted meanwhile leaves no name, and the foreign key refuses the book, as with the trigger.
  await tx.query('select 1 from authors where id in (select author_id from import_staging) order by id for share');
  // Rows are inserted, given their ids and returned in the order of the select, file order: the ids pair
  // with the staged numbers without being read back by number.
  const insert = (where: string) => `
    insert into books (title, publication_year, author_id, isbn, language, subjects, publisher, record_source,
      record_control_number, author_name, search)
    select s.title, s.publication_year, s.author_id, s.isbn, s.language, s.subjects, s.publisher,
      s.record_source, s.record_control_number, coalesce(a.name, ''), books_search_of(s.title, coalesce(a.name, ''))
    from import_staging s left join authors a on a.id = s.author_id
    ${where} order by s.number
    returning id`;
  // `fresh` is in file order; the records refused since are out of the staging table.
  const staged = fresh.filter((number) => !outcomes.has(number));
  const idOf = new Map<number, number>();
  if (!oneByOne) {
    const ids = await tx.query<{ id: number }>(insert(''));
    if (ids.length !== staged.length) throw new Error(`inserted ${ids.length} books for ${staged.length} records`);
    for (const [i, number] of staged.entries()) idOf.set(number, (ids[i] as { id: number }).id);
  } else {
    for (const number of staged) {
      try {
        const [book] = await tx.savepoint((record) =>
          record.query<{ id: number }>(insert('where s.number = $1'), [number]),
        );
        idOf.set(number, (book as { id: number }).id);
      } catch (error) {
        const violation = constraintViolation(error);
        if (!violation) throw error;
        const candidate = candidates.get(number) as ImportCandidate;
        outcomes.set(number, { number, status: 'refused', reason: refusalOf(violation, { number, candidate }) });
      }
    }
  }
  for (const [number, book_id] of idOf) {
    const { title } = candidates.get(number) as ImportCandidate;
    outcomes.set(number, { number, status: 'imported', book_id, title });
  }
  return authors?.created ?? 0;
}

/** The candidates in COPY's text format, one line each, in the order of `STAGING_COLUMNS`. */
function copyText(candidates: Map<number, ImportCandidate>): string {
  let text = '';
  for (const [number, c] of candidates) {
    const author = 'id' in c.author ? [String(c.author.id), null] : [null, c.author.name];
    const row = [
      String(number),
      c.title,
      String(c.publication_year),
      ...author,
      c.isbn,
      c.language,
      arrayLiteral(c.subjects),
      c.publisher,
      c.key?.source ?? null,
      c.key?.controlNumber ?? null,
    ];
    text += `${row.map(copyField).join('\t')}\n`;
  }
  return text;
}

/** A field of COPY's text format: `\N` for null; backslash, tab, newline and carriage return escaped. */
function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** A `text[]` literal, each element quoted, its quotes and backslashes escaped. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
