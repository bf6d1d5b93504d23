/**
 * @module A structured query of books (`domain/book-query.ts`, what SRU's CQL is translated to) as one WHERE
 * built of drizzle `sql` fragments, each condition one the catalogue's indexes serve: words by the GIN index
 * of `books.search` (a title or an author's name then checked on the rows it finds), authors by theirs, exact
 * titles by `books_title_id_idx`, ISBNs by `books_isbn_key`, years by `books_publication_year_id_idx` (each
 * checked with `EXPLAIN` at 100,000 books). Only
 * `relevance` forgives typos: it is the catalogue's own search (`planSearch`), ranked as the listing ranks.
 */
import { asc, desc, type SQL, sql } from 'drizzle-orm';
import type { BookQuery } from '../../domain/book-query.js';
import type { BookMetadata } from '../../domain/harvest-record.js';
import { EXACT_COUNT_LIMIT } from '../../domain/limits.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { authors, books } from '../schema/index.js';
import { bookListing } from './books.js';
import { boundedCount } from './counts.js';
import { NAMED_AUTHORS_LISTED } from './listing-plan.js';
import { planSearch } from './search.js';

const ENGLISH = sql.raw(`'catalogue_english'::regconfig`);
const SIMPLE = sql.raw(`'catalogue_simple'::regconfig`);

/** The WHERE of a query, and the relevance its matches are ordered by where it asks for relevance. */
export interface BookQueryPlan {
  where: SQL;
  /** The relevance of its first `relevance` condition (higher first); absent where it has none. */
  rank?: SQL<number>;
}

/** Plans a query: the catalogue's search is planned (its words looked up) once for each `relevance` term. */
export async function planBookQuery(db: Db, query: BookQuery): Promise<BookQueryPlan> {
  const ranks: SQL<number>[] = [];
  const where = await whereOf(db, query, ranks);
  return { where, ...(ranks[0] && { rank: ranks[0] }) };
}

async function whereOf(db: Db, query: BookQuery, ranks: SQL<number>[]): Promise<SQL> {
  switch (query.kind) {
    case 'and':
    case 'or': {
      const [left, right] = await Promise.all([whereOf(db, query.left, ranks), whereOf(db, query.right, ranks)]);
      return query.kind === 'and' ? sql`(${left} and ${right})` : sql`(${left} or ${right})`;
    }
    case 'not': {
      const [left, right] = await Promise.all([whereOf(db, query.left, ranks), whereOf(db, query.right, ranks)]);
      // A condition on a column that may be null (an ISBN) is null there, and `not null` would drop the row.
      return sql`(${left} and not coalesce(${right}, false))`;
    }
    case 'all':
      return sql`true`;
    case 'isbn':
      return query.isbn === undefined ? sql`false` : sql`${books.isbn} = ${query.isbn}`;
    case 'year':
      return sql`${books.publicationYear} ${sql.raw(query.comparison)} ${query.year}`;
    case 'words':
      return wordsWhere(db, query, ranks);
  }
}

type WordsQuery = Extract<BookQuery, { kind: 'words' }>;

async function wordsWhere(db: Db, query: WordsQuery, ranks: SQL<number>[]): Promise<SQL> {
  if (query.match === 'exact') return exactWhere(db, query);
  if (query.match === 'relevance' && query.field === 'any') {
    const plan = await planSearch(db, bookListing.search, query.text);
    ranks.push(plan.rank);
    const words = sql`${books.search} @@ ${plan.query}`;
    return plan.identified ? sql`(${words} or ${plan.identified})` : words;
  }
  const text = tsQueryText(query);
  if (text === undefined) return sql`false`;
  switch (query.field) {
    case 'any':
      return sql`${books.search} @@ to_tsquery(${ENGLISH}, ${text})`;
    case 'title': {
      // The index finds the books whose title or author has the words; the title is checked on those.
      const words = sql`to_tsquery(${ENGLISH}, ${text})`;
      return sql`(${books.search} @@ ${words} and to_tsvector(${ENGLISH}, catalogue_unmark(${books.title})) @@ ${words})`;
    }
    case 'creator':
      return byAuthors(db, sql`${authors.search} @@ to_tsquery(${SIMPLE}, ${text})`);
  }
}

/** The whole title, or the whole name, character for character. */
async function exactWhere(db: Db, query: WordsQuery): Promise<SQL> {
  const title = sql`${books.title} = ${query.text}`;
  if (query.field === 'title') return title;
  const creator = await byAuthors(db, sql`${authors.name} = ${query.text}`);
  return query.field === 'creator' ? creator : sql`(${title} or ${creator})`;
}

/**
 * Books by the authors a condition names: their ids looked up first, as the listing's `author=` does
 * (`NAMED_AUTHORS_LISTED`), for the planner cannot tell how many authors a text search names and would
 * rather walk every book in order than look up a few authors' books by `books_author_id_id_idx`.
 */
async function byAuthors(db: Db, named: SQL): Promise<SQL> {
  const found = sql`select ${authors.id} from ${authors} where ${named}`;
  const [row] = rowsOf<{ ids: number[] | null }>(
    await db.execute(sql`select array_agg(id) as ids from (${found} limit ${NAMED_AUTHORS_LISTED + 1}) as named`),
  );
  const ids = (row?.ids ?? []).map(Number);
  if (ids.length > NAMED_AUTHORS_LISTED) return sql`${books.authorId} in (${found})`;
  if (ids.length === 0) return sql`false`;
  return sql`${books.authorId} = any(${sql.param(ids)}::integer[])`;
}

/** The words as the text of `to_tsquery`: each quoted, a prefix marked `:*`; `undefined` when there are none. */
function tsQueryText(query: WordsQuery): string | undefined {
  const operands = query.words
    .map(({ word, prefix }) => ({ quoted: word.replace(/['\\]/g, ''), prefix }))
    .filter(({ quoted }) => quoted !== '')
    .map(({ quoted, prefix }) => `'${quoted}'${prefix ? ':*' : ''}`);
  if (operands.length === 0) return undefined;
  const joiner = query.match === 'any' ? ' | ' : query.match === 'phrase' ? ' <-> ' : ' & ';
  return operands.join(joiner);
}

/** A page of the books a query matches, with how many match in all. */
export interface BookQueryPage {
  /** The matches: counted exactly up to the count limit, past it the planner's estimate. */
  total: number;
  estimated: boolean;
  books: BookMetadata[];
}

/** The book's fields a record is made from, as `BookMetadata` names them. */
const recordColumns = {
  id: books.id,
  title: books.title,
  publication_year: books.publicationYear,
  author_id: books.authorId,
  author_name: books.authorName,
  isbn: books.isbn,
  language: books.language,
  subjects: books.subjects,
  publisher: books.publisher,
};

/**
 * The books a planned query matches, `limit` of them after the first `offset`, as the listing reads a
 * search: counted up to `countLimit` (past it, the planner's estimate), and ranked by relevance where the
 * query asks for it and the matches are within that limit, else in the catalogue's order (by id), so that
 * paging through them sees each once.
 */
export async function readBookQueryPage(
  db: Db,
  plan: BookQueryPlan,
  page: { offset: number; limit: number },
  countLimit = EXACT_COUNT_LIMIT,
): Promise<BookQueryPage> {
  const counting = boundedCount(db, books, plan.where, countLimit);
  const ranked = plan.rank !== undefined && (await counting.withinLimit);
  const order = ranked && plan.rank ? [desc(plan.rank), asc(books.id)] : [asc(books.id)];
  const rows =
    page.limit === 0
      ? []
      : await db
          .select(recordColumns)
          .from(books)
          .where(plan.where)
          .orderBy(...order)
          .limit(page.limit)
          .offset(page.offset);
  const { n, estimated } = await counting.total;
  return { total: n, estimated, books: rows as BookMetadata[] };
}
