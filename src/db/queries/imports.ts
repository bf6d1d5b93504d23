/**
 * @module Writing a batch of imported records: each matched with the books the catalogue holds (by ISBN,
 * else by source and control number), its author found by name or created, the new books inserted in one
 * statement. A batch is one transaction; a record the database refuses is retried alone in a savepoint,
 * so it is refused by itself and the others land.
 */
import { sql } from 'drizzle-orm';
import type { ImportCandidate } from '../../domain/imports/candidate.js';
import type { RecordOutcome } from '../../domain/imports/report.js';
import { type Db, rowsOf } from '../client.js';
import { constraintViolation, FOREIGN_KEY_VIOLATION } from '../errors.js';
import { books } from '../schema/index.js';

/** A checked record and its number in the file. */
export interface NumberedCandidate {
  number: number;
  candidate: ImportCandidate;
}

export interface BatchResult {
  /** One per record given, in the order given. */
  outcomes: RecordOutcome[];
  authorsCreated: number;
}

/**
 * Imports serialize on this lock (a transaction-scoped advisory lock, released at commit): two imports at
 * once would otherwise both miss an author or a record the other is about to create, and create it twice.
 */
export const IMPORT_LOCK = 7305414;

/** Writes a batch in one transaction; records the database refuses are refused one by one, the rest land. */
export async function writeImportBatch(db: Db, batch: readonly NumberedCandidate[]): Promise<BatchResult> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(IMPORT_LOCK))})`);
      return await writeRecords(tx as unknown as Db, batch);
    });
  } catch (error) {
    if (!constraintViolation(error) || batch.length === 1) throw error;
  }
  // Something in the batch broke a rule the checks before it did not know of (an author id that names no
  // one, an ISBN another writer took meanwhile): each record alone, in a savepoint, so that only it fails.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(IMPORT_LOCK))})`);
    const result: BatchResult = { outcomes: [], authorsCreated: 0 };
    for (const record of batch) {
      try {
        const one = await tx.transaction((savepoint) => writeRecords(savepoint as unknown as Db, [record]));
        result.outcomes.push(...one.outcomes);
        result.authorsCreated += one.authorsCreated;
      } catch (error) {
        const violation = constraintViolation(error);
        if (!violation) throw error;
        result.outcomes.push({ number: record.number, status: 'refused', reason: refusalOf(violation, record) });
      }
    }
    return result;
  });
}

export function refusalOf(
  violation: { code: string; constraint: string | undefined },
  record: NumberedCandidate,
): string {
  const { author } = record.candidate;
  if (violation.code === FOREIGN_KEY_VIOLATION && 'id' in author) return `bad author: no author ${author.id}`;
  if (violation.constraint === 'books_isbn_key') {
    return 'bad ISBN: another book took it while this import ran; import again to match it';
  }
  return `refused by the catalogue rule ${violation.constraint ?? violation.code}`;
}

interface BookMatch {
  id: number;
  title: string;
  isbn: string | null;
  record_source: string | null;
  record_control_number: string | null;
}

/** The batch's outcomes, in a transaction that holds the import lock. */
async function writeRecords(db: Db, batch: readonly NumberedCandidate[]): Promise<BatchResult> {
  const held = await matchingBooks(db, batch);
  const byIsbn = new Map(held.filter((b) => b.isbn).map((b) => [b.isbn as string, b]));
  const byKey = new Map(
    held.filter((b) => b.record_control_number).map((b) => [keyText(b.record_source, b.record_control_number), b]),
  );
  const outcomes: (RecordOutcome | undefined)[] = [];
  // Records of the batch that repeat an earlier one (the same ISBN or record twice in a file) match the
  // book the earlier one creates: their position, and the index of the record they repeat.
  const repeats: { at: number; of: number; by: 'isbn' | 'control_number' }[] = [];
  const fresh: { at: number; record: NumberedCandidate }[] = [];
  const firstByIsbn = new Map<string, number>();
  const firstByKey = new Map<string, number>();
  for (const [at, record] of batch.entries()) {
    const { isbn, key } = record.candidate;
    const recordKey = key && keyText(key.source, key.controlNumber);
    const held = (isbn && byIsbn.get(isbn)) || (recordKey && byKey.get(recordKey));
    if (held) {
      const by = isbn && byIsbn.has(isbn) ? 'isbn' : 'control_number';
      outcomes[at] = { number: record.number, status: 'matched', book_id: held.id, title: held.title, matched_by: by };
      continue;
    }
    const earlier = (isbn && firstByIsbn.get(isbn)) ?? (recordKey && firstByKey.get(recordKey));
    if (typeof earlier === 'number') {
      repeats.push({ at, of: earlier, by: isbn && firstByIsbn.has(isbn) ? 'isbn' : 'control_number' });
      continue;
    }
    if (isbn) firstByIsbn.set(isbn, at);
    if (recordKey) firstByKey.set(recordKey, at);
    fresh.push({ at, record });
  }
  const { ids: authorIds, created } = await authorsOf(
    db,
    fresh.map(({ record }) => record.candidate.author),
  );
  if (fresh.length > 0) {
    // PostgreSQL returns an INSERT's rows in the order of its VALUES (what Django's bulk_create relies on).
    const inserted = await db
      .insert(books)
      .values(
        fresh.map(({ record: { candidate } }, i) => ({
          title: candidate.title,
          publicationYear: candidate.publication_year,
          authorId: authorIds[i] as number,
          isbn: candidate.isbn,
          language: candidate.language,
          subjects: candidate.subjects,
          publisher: candidate.publisher,
          recordSource: candidate.key?.source ?? null,
          recordControlNumber: candidate.key?.controlNumber ?? null,
        })),
      )
      .returning({ id: books.id });
    for (const [i, { at, record }] of fresh.entries()) {
      const id = (inserted[i] as { id: number }).id;
      outcomes[at] = { number: record.number, status: 'imported', book_id: id, title: record.candidate.title };
    }
  }
  for (const { at, of, by } of repeats) {
    const first = outcomes[of] as Extract<RecordOutcome, { book_id: number }>;
    const { number } = batch[at] as NumberedCandidate;
    outcomes[at] = { number, status: 'matched', book_id: first.book_id, title: first.title, matched_by: by };
  }
  return { outcomes: outcomes as RecordOutcome[], authorsCreated: created };
}

function keyText(source: string | null, controlNumber: string | null): string {
  return JSON.stringify([source, controlNumber]);
}

/** The books that hold an ISBN or a record key of the batch. */
async function matchingBooks(db: Db, batch: readonly NumberedCandidate[]): Promise<BookMatch[]> {
  const isbns = batch.flatMap(({ candidate }) => (candidate.isbn ? [candidate.isbn] : []));
  const keys = batch.flatMap(({ candidate: { key } }) => (key ? [{ s: key.source, n: key.controlNumber }] : []));
  if (isbns.length === 0 && keys.length === 0) return [];
  // Two joins driven by the batch's values, each an index probe per value (`books_isbn_key`,
  // `books_record_key`); an OR of the two would read the whole table.
  const result = await db.execute(sql`
    select b.id, b.title, b.isbn, b.record_source, b.record_control_number
    from jsonb_array_elements_text(${JSON.stringify(isbns)}::jsonb) as i(isbn)
    join books b on b.isbn = i.isbn
    where b.isbn is not null
    union
    select b.id, b.title, b.isbn, b.record_source, b.record_control_number
    from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(s text, n text)
    join books b on b.record_source = k.s and b.record_control_number = k.n
    where b.record_control_number is not null`);
  return rowsOf<BookMatch>(result);
}

/**
 * The author id of each record, in order: the id it gives, or the author whose name compares equal
 * (`catalogue_name_key`; the oldest of several), or a new author. Names of one key in the batch make one
 * author, named as the first of them is written.
 */
async function authorsOf(
  db: Db,
  authors: readonly ImportCandidate['author'][],
): Promise<{ ids: number[]; created: number }> {
  const names = [...new Set(authors.flatMap((a) => ('name' in a ? [a.name] : [])))];
  const idOfName = new Map<string, number>();
  let created = 0;
  if (names.length > 0) {
    const result = await db.execute(sql`
      with wanted as (
        select w.name, w.at, catalogue_name_key(w.name) as key
        from jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) with ordinality as w(name, at)
      ),
      found as (
        select distinct on (w.key) w.key, a.id
        from wanted w join authors a on catalogue_name_key(a.name) = w.key
        order by w.key, a.id
      ),
      created as (
        insert into authors (name)
        select distinct on (w.key) w.name from wanted w
        where not exists (select 1 from found f where f.key = w.key)
        order by w.key, w.at
        returning id, catalogue_name_key(name) as key
      )
      select w.name, coalesce(f.id, c.id) as id, c.id is not null as created
      from wanted w left join found f on f.key = w.key left join created c on c.key = w.key`);
    const createdIds = new Set<number>();
    for (const row of rowsOf<{ name: string; id: number; created: boolean }>(result)) {
      idOfName.set(row.name, Number(row.id));
      if (row.created) createdIds.add(Number(row.id));
    }
    created = createdIds.size;
  }
  return { ids: authors.map((a) => ('id' in a ? a.id : (idOfName.get(a.name) as number))), created };
}
