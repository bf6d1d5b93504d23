/**
 * @module Generates a synthetic catalogue of any size inside the database, for load tests and for trying
 * the service at a real library's size: rows come from `generate_series`, so they never pass through here.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Sql } from 'postgres';
import type { Db } from './client.js';
import { rowsOf } from './client.js';

/** Each is in exactly 10% of generated titles (the benchmark's searches pick among them). */
export const COMMON_WORDS = [
  'garden',
  'river',
  'winter',
  'house',
  'mountain',
  'letter',
  'island',
  'shadow',
  'harvest',
  'voyage',
] as const;

/** The first word of every generated title (the benchmark's misspelt searches pair one with a common word). */
export const ADJECTIVES = (
  'silent golden hidden broken distant burning quiet bitter endless fallen scarlet hollow gentle wild ' +
  'frozen ancient secret last crimson lonely bright silver dark forgotten wandering restless painted ' +
  'sunken velvet iron amber pale savage patient crooked hungry sleeping northern southern eastern'
).split(' ');

/** The last word of every generated title (the benchmark's suggestions type their beginnings). */
export const NOUNS = (
  'kings sea stars city wolves desert empire moon orchard bells lantern tides forest crown valley storm ' +
  'mirror clock prophet sparrow glacier harbour bridge cathedral meadow comet thief widow soldier ' +
  'painter monk tower circus lighthouse archive vineyard canyon railway market monastery frontier delta ' +
  'steppe fjord plateau lagoon citadel caravan reef marsh'
).split(' ');

/** Languages of generated books (ISO 639-2/B), English the most common as in an English-speaking library. */
export const LANGUAGES = ['eng', 'eng', 'eng', 'eng', 'eng', 'ger', 'fre', 'spa', 'ita', 'rus'] as const;

/** Subject headings of generated books: one or two of these each. */
export const SUBJECTS = [
  'Adventure stories',
  'Detective and mystery stories',
  'Domestic fiction',
  'Fantasy fiction',
  'Historical fiction',
  'Horror tales',
  'Humorous stories',
  'Love stories',
  'Poetry',
  'Science fiction',
  'Sea stories',
  'Short stories',
  'War stories',
  'Biography',
  'Travel',
  'Natural history',
  'Philosophy',
  'Cooking',
  'Gardening',
  'Music',
] as const;

/** Publishers of generated books. */
export const PUBLISHERS = [
  'Harbour Press',
  'Lantern Books',
  'Northwind Publishing',
  'Orchard House',
  'Quill & Ink',
  'Riverbank Editions',
  'Silverleaf',
  'Stonebridge',
  'Tidewater Books',
  'Vellum & Vine',
] as const;

/** Books published from this year on have an ISBN (the system began about then). */
export const FIRST_ISBN_YEAR = 1970;

export interface GenerateParams {
  books: number;
  /** Defaults to one author per ten books. */
  authors?: number;
  /** Rows inserted per statement; progress is reported after each. */
  batchSize?: number;
  onProgress?: (progress: GenerateProgress) => void;
}

export interface GenerateProgress {
  phase: 'authors' | 'books' | 'vacuum';
  done: number;
  total: number;
}

/**
 * The shape is fixed and documented (docs/performance.md), so figures taken at different sizes compare:
 * - authors are named `Author <n>` (n = 1…authors, counting within this run);
 * - each title is `<adjective> <common word> of the <noun>`: every title holds exactly one of the ten
 *   `COMMON_WORDS`, so each of them is in 10% of titles, while adjectives and nouns are rarer;
 * - years are spread over 1500–2025; books are spread evenly over the authors;
 * - books from `FIRST_ISBN_YEAR` on (about 11%) have an ISBN, `978-0-0…` numbered after the catalogue's
 *   highest book id (so a second run adds new ones; unique up to ten million books), check digit from
 *   PostgreSQL's `isn`; every book has a language (half of them English), one or two `SUBJECTS` and a
 *   publisher.
 * The change feed records what it inserts like any write (docs/operations.md, "The change feed").
 */
/**
 * Inserts the authors, then the books spread over them, then vacuums the database: the catalogue answers at
 * its full speed at once, not only once autovacuum has come by (see `vacuum`).
 */
export async function generateCatalogue(db: Db, params: GenerateParams): Promise<{ authors: number; books: number }> {
  const authorCount = params.authors ?? Math.max(1, Math.round(params.books / 10));
  const batchSize = params.batchSize ?? 50_000;
  const report = params.onProgress ?? (() => {});

  const firstAuthorId = await insertAuthors(db, authorCount, batchSize, report);
  const [highest] = rowsOf<{ id: number }>(await db.execute(sql`select coalesce(max(id), 0) as id from books`));
  const isbnBase = Number(highest?.id ?? 0);
  const firstSubject = hashed(sql`i * 4`, SUBJECTS.length);
  for (let done = 0; done < params.books; done += batchSize) {
    const count = Math.min(batchSize, params.books - done);
    const insertBooks = sql`
      insert into books (title, publication_year, author_id, isbn, language, subjects, publisher)
      select
        initcap(${words(ADJECTIVES)}[1 + (i * 7919 / 10) % ${ADJECTIVES.length}])
          || ' ' || initcap(${words(COMMON_WORDS)}[1 + i % ${COMMON_WORDS.length}])
          || ' of the ' || initcap(${words(NOUNS)}[1 + (i * 104729 / 400) % ${NOUNS.length}]),
        year,
        ${firstAuthorId} + (i * 2654435761) % ${authorCount},
        -- The twelve digits, with a placeholder check digit that isn's weak mode lets make_valid correct.
        case when year >= ${FIRST_ISBN_YEAR} then replace(make_valid(
          ('97800' || lpad(((${isbnBase} + i) % 10000000)::text, 7, '0') || '0')::isbn13)::text, '-', '') end,
        ${words(LANGUAGES)}[1 + ${hashed(sql`i`, LANGUAGES.length)}],
        -- One heading for a third of the books, two (never the same one twice) for the others.
        case when ${hashed(sql`i * 4 + 1`, 3)} = 0 then array[${words(SUBJECTS)}[1 + ${firstSubject}]]
          else array[${words(SUBJECTS)}[1 + ${firstSubject}],
            ${words(SUBJECTS)}[1 + (${firstSubject} + 1 + ${hashed(sql`i * 4 + 2`, SUBJECTS.length - 1)}) % ${SUBJECTS.length}]] end,
        ${words(PUBLISHERS)}[1 + ${hashed(sql`i * 4 + 3`, PUBLISHERS.length)}]
      from generate_series(${done + 1}::bigint, ${done + count}::bigint) as i,
        lateral (select (1500 + (i * 48271) % 526)::integer as year) as book`;
    await withoutTimeBudget(db, insertBooks, { weakIsbn: true });
    report({ phase: 'books', done: done + count, total: params.books });
  }
  report({ phase: 'vacuum', done: 0, total: 1 });
  await vacuum(db);
  report({ phase: 'vacuum', done: 1, total: 1 });
  return { authors: authorCount, books: params.books };
}

/**
 * Runs one statement free of the service's per-statement time budget (STATEMENT_TIME_BUDGET_MS, set on
 * every connection): a batch of 50,000 rows into a large table with its indexes and triggers can take
 * longer on a busy machine, and was cancelled at 90% of a million books.
 */
async function withoutTimeBudget(db: Db, statement: SQL, options: { weakIsbn?: boolean } = {}) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    // isn's weak mode is the session's until turned off (PostgreSQL 15 has no setting of it local to a
    // transaction), so it is turned off again before the connection goes back to the pool. Should the insert
    // fail, it stays on for that connection: nothing else in the catalogue reads an ISBN through isn.
    if (!options.weakIsbn) return tx.execute(statement);
    await tx.execute(sql`select isn_weak(true)`);
    try {
      return await tx.execute(statement);
    } finally {
      await tx.execute(sql`select isn_weak(false)`).catch(() => {});
    }
  });
}

/**
 * `VACUUM (ANALYZE)` the whole database: every table the new rows reached (books and authors, and what
 * their triggers wrote: copies, the change feed, OAI records, counters, the dictionary), for planner
 * statistics, hint bits and the visibility map, without which a count cannot be answered from an index
 * alone. Autovacuum may be off or far behind, and a copy never vacuumed is slow to find on the shelf. VACUUM
 * cannot run in a transaction, so it gets a connection of its own, free of the time budget (PGlite has one
 * connection and no budget).
 */
async function vacuum(db: Db): Promise<void> {
  const statement = 'vacuum (analyze)';
  const client = (db as unknown as { $client: unknown }).$client;
  if (!isPostgresJs(client)) {
    await db.execute(sql.raw(statement));
    return;
  }
  const connection = await client.reserve();
  try {
    await connection.unsafe('set statement_timeout = 0');
    await connection.unsafe(statement);
  } finally {
    connection.release();
  }
}

function isPostgresJs(client: unknown): client is Sql {
  return typeof (client as Partial<Sql>).reserve === 'function';
}

/**
 * A number from 0 to `n - 1` spread evenly over the books, and independent of the others chosen so (and of
 * `i % 10`, which picks a title's common word): a facet of the generated books then counts values as a real
 * catalogue's would, not in step with its search words.
 */
function hashed(of: SQL, n: number): SQL {
  return sql`((hashint8(${of}) & 2147483647) % ${sql.raw(String(n))})`;
}

/** A constant list of plain words as an SQL array literal (the words are ours, never a caller's). */
function words(list: readonly string[]): SQL {
  return sql.raw(`(array[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[])`);
}

/**
 * Inserts `Author 1` … `Author <count>` and answers the first id. Books find their author by offset from
 * it, so the ids must be contiguous: they are, unless another writer inserted authors at the same time,
 * which is checked rather than assumed.
 */
async function insertAuthors(
  db: Db,
  count: number,
  batchSize: number,
  report: (progress: GenerateProgress) => void,
): Promise<number> {
  let first: number | undefined;
  for (let done = 0; done < count; done += batchSize) {
    const size = Math.min(batchSize, count - done);
    const insertAuthorsBatch = sql`
      with inserted as (
        insert into authors (name)
        select 'Author ' || n from generate_series(${done + 1}::integer, ${done + size}::integer) as n
        order by n
        returning id
      )
      select min(id) as first, max(id) as last from inserted`;
    const result = await withoutTimeBudget(db, insertAuthorsBatch);
    const [range] = rowsOf<{ first: number; last: number }>(result);
    if (!range) throw new Error('no authors were inserted');
    first ??= Number(range.first);
    if (Number(range.last) !== first + done + size - 1) {
      throw new Error('another writer inserted authors meanwhile; run generate while nothing else writes');
    }
    report({ phase: 'authors', done: done + size, total: count });
  }
  return first as number;
}
