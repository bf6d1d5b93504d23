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
import { bookMetadataColumns } from './book-metadata.js';
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
  /**
   * Where a `relevance` condition matches its last word as a prefix, the WHERE with that word whole (its
   * search's `core`): a subset of `where`'s matches, counted first (see `boundedCount`).
   */
  core?: SQL;
}

/** A condition, and where it has one, its core: the same with each search's last word matched whole. */
interface Condition {
  all: SQL;
  core?: SQL;
}

/** Plans a query: the catalogue's search is planned (its words looked up) once for each `relevance` term. */
export async function planBookQuery(db: Db, query: BookQuery): Promise<BookQueryPlan> {
  const ranks: SQL<number>[] = [];
  const { all, core } = await conditionOf(db, query, ranks);
  return { where: all, ...(ranks[0] && { rank: ranks[0] }), ...(core && { core }) };
}

async function conditionOf(db: Db, query: BookQuery, ranks: SQL<number>[]): Promise<Condition> {
  switch (query.kind) {
    case 'and':
    case 'or':
    case 'not': {
      const [left, right] = await Promise.all([
        conditionOf(db, query.left, ranks),
        conditionOf(db, query.right, ranks),
      ]);
      const join = (l: SQL, r: SQL) =>
        query.kind === 'and'
          ? sql`(${l} and ${r})`
          : query.kind === 'or'
            ? sql`(${l} or ${r})`
            : // A condition on a column that may be null (an ISBN) is null there, and `not null` would drop the row.
              sql`(${l} and not coalesce(${r}, false))`;
      // A subset of either side's matches keeps `and` and `or` a subset; what `not` excludes stays whole.
      const core =
        left.core || (right.core && query.kind !== 'not')
          ? join(left.core ?? left.all, query.kind === 'not' ? right.all : (right.core ?? right.all))
          : undefined;
      return { all: join(left.all, right.all), ...(core && { core }) };
    }
    case 'all':
      return { all: sql`true` };
    case 'isbn':
      return { all: query.isbn === undefined ? sql`false` : sql`${books.isbn} = ${query.isbn}` };
    case 'year':
      return { all: sql`${books.publicationYear} ${sql.raw(query.comparison)} ${query.year}` };
    case 'words':
      return wordsCondition(db, query, ranks);
  }
}

type WordsQuery = Extract<BookQuery, { kind: 'words' }>;

async function wordsCondition(db: Db, query: WordsQuery, ranks: SQL<number>[]): Promise<Condition> {
  if (query.match === 'relevance' && query.field === 'any') {
    // The catalogue's search, as the listing's `query=` matches it (`listingWhere`).
    const plan = await planSearch(db, bookListing.search, query.text);
    ranks.push(plan.rank);
    const matching = (tsQuery: SQL) => {
      const words = sql`${books.search} @@ ${tsQuery}`;
      return plan.identified ? sql`(${words} or ${plan.identified})` : words;
    };
    return { all: matching(plan.query), ...(plan.core && { core: matching(plan.core) }) };
  }
  return { all: await wordsWhere(db, query) };
}

async function wordsWhere(db: Db, query: WordsQuery): Promise<SQL> {
  if (query.match === 'exact') return exactWhere(db, query);
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
const recordColumns = { id: books.id, ...bookMetadataColumns };

/**
 * The books a planned query matches, `limit` of them after the first `offset`, as the listing reads a
 * search (`readPage`): counted up to `countLimit` (past it, the planner's estimate), its core first where it
 * has one, and ranked by relevance where the query asks for it and the matches are within that limit, else
 * in the catalogue's order (by id), so that paging through them sees each once. Where the planner expects
 * far more matches than are ranked, the unranked page is read while they are counted, rather than after.
 */
export async function readBookQueryPage(
  db: Db,
  plan: BookQueryPlan,
  page: { offset: number; limit: number },
  countLimit = EXACT_COUNT_LIMIT,
): Promise<BookQueryPage> {
  const rankable = plan.rank !== undefined;
  const counting = boundedCount(db, books, plan.where, countLimit, {
    estimateAtOnce: rankable,
    ...(plan.core && { subset: plan.core }),
  });
  // Run once, when called: a query builder awaited twice would run twice.
  const read = async (ranked: boolean) =>
    page.limit === 0
      ? []
      : await db
          .select(recordColumns)
          .from(books)
          .where(plan.where)
          .orderBy(...(ranked && plan.rank ? [desc(plan.rank), asc(books.id)] : [asc(books.id)]))
          .limit(page.limit)
          .offset(page.offset);
  const early = !rankable || (await counting.farBeyondLimit) ? read(false) : undefined;
  early?.catch(() => {}); // Not awaited when the count says the search is ranked after all.
  const ranked = rankable && (await counting.withinLimit);
  const total = await counting.total;
  // A query the count found nothing for is not read again: its page is empty.
  const rows = total.n === 0 ? [] : await (early && !ranked ? early : read(ranked));
  return { total: total.n, estimated: total.estimated, books: rows as BookMetadata[] };
}
