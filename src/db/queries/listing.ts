/**
 * @module Turns a validated `Listing` into SQL for any collection: its WHERE, its ORDER BY (ties broken by
 * id), one page (keyset cursor, or offset for `page=N`) and its total, or the whole listing in batches.
 */
import { and, asc, desc, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { KeyValue } from '../../domain/cursor.js';
import {
  type Correction,
  type Filter,
  isRankable,
  type Listing,
  type ListingSpec,
  listsExactFirst,
  orderKeys,
  type PagedListing,
  type PageFacts,
} from '../../domain/listing.js';
import type { Database, Db } from '../client.js';
import { rowsOf } from '../client.js';
import { boundedCount, type Counting, countedTotal, countUpTo, readCounter } from './counts.js';
import { planSearch, type SearchPlan, type SearchTable } from './search.js';

/** A listing filter's values, as parsed from `filter=`. */
type FilterValues = (string | number | boolean)[];

/**
 * How a collection's listing maps onto its table. Typed by the collection's `ListingSpec`, the one
 * declaration of its fields: the mapping names a column for exactly those fields, and a column or a
 * condition for exactly its filters and an order for its sorts, so the two cannot drift apart.
 */
export interface ListingTable<Spec extends ListingSpec = ListingSpec> {
  /** The table listed. */
  from: PgTable;
  /** What each item reads, named as the API names it (order key values are read back by those names). */
  selection: SelectedFields;
  /** Each of the spec's fields → its column. */
  columns: { readonly [Field in keyof Spec['fields']]: PgColumn };
  id: PgColumn;
  /** How `query` searches it: its tsvector, configuration, and the dictionary of its words (`search.ts`). */
  search: SearchTable;
  /** Each of the spec's filters → its column, or its condition where it is not a plain column (a loan's `status`). */
  filters?: { readonly [Field in keyof Spec['filters']]: PgColumn | ((values: FilterValues) => SQL) };
  /**
   * Each of the spec's sorts (a hold's `position`) → what it is ordered by: an expression never null, read
   * with each row under a name of its own for the paging cursors.
   */
  sorts?: { readonly [Field in keyof Spec['sorts']]: SQL };
  /**
   * For the `author` parameter, absent where it does not apply: the column naming an item's author, how
   * authors' names are searched, and the query of the ids of the authors whose names match a `tsquery`.
   */
  authorNamed?: { column: PgColumn; names: SearchTable; authorIds: (query: SQL) => SQL };
  /** The spec's `exactFirst`, copied by `listingTable`: where its search needs `search.exact`. */
  exactFirst?: boolean;
}

/** The table mapping of a listing `spec`, checked against it (see `ListingTable`). */
export function listingTable<const Spec extends ListingSpec>(spec: Spec, table: ListingTable<Spec>): ListingTable {
  if (spec.exactFirst && !table.search.exact) throw new Error('a listing of exact matches first needs exact keys');
  return { ...table, exactFirst: spec.exactFirst === true } as unknown as ListingTable;
}

/** Which part of a collection is listed, and how to count all of it without reading it. */
export interface ListingScope {
  conditions?: SQL[];
  /** A query answering the number of items in scope from a counter (constant time), where one is kept. */
  counted?: SQL;
  /**
   * By field: a query answering, from counters, how many items in scope have that field among the given
   * values. A listing filtered on that field alone is counted by it, exactly and in constant time.
   */
  countedBy?: Record<string, (values: FilterValues) => SQL>;
}

/** One page as read: its rows, the total, and what its paging links need. */
export type PageRead<Row> = PageFacts & { rows: Row[] };

/** One order key as SQL: a column, a derived sort or the relevance rank, and its direction. */
interface OrderKey {
  expr: SQL | PgColumn;
  /** The row's column holding the key's value: a field's own, or a hidden one (see `hiddenKeys`). */
  field: string;
  descending: boolean;
  /**
   * For a key of a few values (0, 1, …), the condition of each value (`undefined`: no row has it): the
   * rows of each are read apart, in the order of the keys after it, each by an index, rather than by
   * sorting every match on this key.
   */
  tiers?: (SQL | undefined)[];
}

const RANK = '_rank';
/** A search past the ranked limit: 0 for the items it names exactly, 1 for the others (`orderOf`). */
const TIER = '_tier';

/** The hidden column a derived sort's value is read into. */
const sortColumn = (field: string) => `_by_${field}`;

/**
 * Authors named by `author=` are looked up first, up to this many, and the listing then asks for their ids,
 * sent as one array: the planner, which cannot tell how many authors a prefix matches (it guesses 2% of
 * them), then knows whether to read those authors' books (a few) or to walk the listing's order (many),
 * and tests each row it walks against a hash of the ids. Their total is then read from the counters of
 * books per author, exactly. Beyond this many, the listing asks for the authors' query instead, whose
 * test looks the author up for every row walked (a million books, a prefix naming 1.1% of the authors:
 * 7 ms to walk to one page, 45 ms on a busy machine, against 0.5 ms with their 1,111 ids), and its total
 * is a bounded count. Two thousand ids take about as long to send, plan and count as that walk.
 */
const NAMED_AUTHORS_LISTED = 2000;

/** The authors `author=` names: their ids when few enough to list (`NAMED_AUTHORS_LISTED`), else their query. */
type NamedAuthors = { ids: number[] } | { query: SQL };

/** How a listing's `query` and `author` are matched, planned once for all the statements of one answer. */
export interface ListingSearch {
  query?: SearchPlan;
  author?: SearchPlan;
  /** The authors `author=` names, looked up once (see `NAMED_AUTHORS_LISTED`). */
  authors?: NamedAuthors;
}

/** Plans the listing's `query` and `author` (see `search.ts`). */
export async function planListingSearch(db: Db, table: ListingTable, listing: Listing): Promise<ListingSearch> {
  const [query, author] = await Promise.all([
    listing.query === undefined ? undefined : planSearch(db, table.search, listing.query),
    listing.author === undefined || !table.authorNamed
      ? undefined
      : planSearch(db, table.authorNamed.names, listing.author, { syntax: false }),
  ]);
  const authors = table.authorNamed && author ? await namedAuthors(db, table.authorNamed, author) : undefined;
  return { ...(query && { query }), ...(author && { author }), ...(authors && { authors }) };
}

/** The search with its `query` matching `query` instead (its core: see `SearchPlan.core`). */
function withQuery(search: ListingSearch, query: SQL): ListingSearch {
  return search.query ? { ...search, query: { ...search.query, query } } : search;
}

/** The WHERE of a listing, within a scope (e.g. one author's books). */
export async function listingWhere(
  db: Db,
  table: ListingTable,
  listing: Listing,
  scope: SQL[] = [],
  search?: ListingSearch,
): Promise<SQL | undefined> {
  const planned = search ?? (await planListingSearch(db, table, listing));
  const conditions = [...scope];
  for (const filter of listing.filters) {
    const byFilter = (table.filters as Record<string, PgColumn | ((values: FilterValues) => SQL)> | undefined)?.[
      filter.field
    ];
    conditions.push(
      typeof byFilter === 'function'
        ? byFilter(filter.values)
        : inArray(byFilter ?? columnOf(table, filter.field), filter.values),
    );
  }
  if (listing.author !== undefined && table.authorNamed) {
    const named = planned.authors ?? (await namedAuthors(db, table.authorNamed, planned.author));
    conditions.push(authorCondition(table.authorNamed, named));
  }
  if (planned.query) {
    const words = sql`${table.search.column} @@ ${planned.query.query}`;
    conditions.push(planned.query.identified ? sql`(${words} or ${planned.query.identified})` : words);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The authors whose names match `author=` (its plan); see `NAMED_AUTHORS_LISTED`. */
async function namedAuthors(
  db: Db,
  named: NonNullable<ListingTable['authorNamed']>,
  plan: SearchPlan | undefined,
): Promise<NamedAuthors> {
  if (plan === undefined) return { ids: [] };
  const authorIds = named.authorIds(plan.query);
  // One array, not a row per author: a prefix may name a thousand of them.
  const [row] = rowsOf<{ ids: number[] | null }>(
    await db.execute(sql`select array_agg(id) as ids from (${authorIds} limit ${NAMED_AUTHORS_LISTED + 1}) as named`),
  );
  const ids = (row?.ids ?? []).map(Number);
  if (ids.length > NAMED_AUTHORS_LISTED) return { query: authorIds };
  return { ids };
}

/** Items by one of the named authors. */
function authorCondition(named: NonNullable<ListingTable['authorNamed']>, authors: NamedAuthors): SQL {
  if ('query' in authors) return sql`${named.column} in (${authors.query})`;
  if (authors.ids.length === 0) return sql`false`;
  // One array, not a parameter per id: the planner sees its length, and hashes it to test walked rows.
  return sql`${named.column} = any(${sql.param(authors.ids)}::integer[])`;
}

/** One page of a listing, and how many items the whole listing has (exact, or a marked estimate). */
export async function readPage<Row>(
  db: Db,
  table: ListingTable,
  listing: PagedListing,
  scope: ListingScope = {},
): Promise<PageRead<Row>> {
  const search = await planListingSearch(db, table, listing);
  const where = await listingWhere(db, table, listing, scope.conditions, search);
  const cursor = listing.cursor;
  // Without a cursor saying so, whether a search is ranked depends on how many items match: relevance is
  // ranked only over few enough matches that ranking them all stays cheap.
  const rankable = !cursor && isRankable(listing);
  // The count runs alongside the page's read (past the limit, the planner's estimate does).
  const core = search.query?.core;
  const subset = core && (await listingWhere(db, table, listing, scope.conditions, withQuery(search, core)));
  const counting = countItems(db, table, listing, where, scope, search.authors, {
    estimateAtOnce: rankable,
    ...(subset && { subset }),
  });
  const read = (ranked: boolean) => readRows(db, { table, listing, where, search, counting, ranked });
  // Where the planner expects far more matches than are ranked, the unranked page is read while they are
  // counted, rather than after: the count of a common word's matches takes as long as the read.
  const early = rankable && (await counting.farBeyondLimit) ? read(false) : undefined;
  early?.catch(() => {}); // Not awaited when the count says the search is ranked after all.
  const ranked = cursor ? cursor.ranked : rankable && (await counting.withinLimit);
  const total = ranked && !cursor ? await counting.total : undefined;
  // A search the count found nothing for is not read again: its page is empty (at 1M books, a word the
  // catalogue lacks beside a common prefix costs the full-text index as much to rank as to count).
  const { rows, keys, page, more } =
    total?.n === 0
      ? { rows: [], keys: [], page: listing.paging.page, more: false }
      : await (early && !ranked ? early : read(ranked));
  const { n: totalItems, estimated } = total ?? (await counting.total);
  const first = rows[0];
  const last = rows.at(-1);
  const corrected = await correctedSearch(db, table, listing, search, totalItems, scope.conditions);
  return {
    rows: withoutHidden(rows, table, keys) as Row[],
    totalItems,
    estimated,
    page,
    ranked,
    ...(corrected && { corrected }),
    ...(first && last && { edges: { first: keysOf(keys, first), last: keysOf(keys, last) } }),
    more,
  };
}

/** What one page's rows are read from. */
interface RowsRead {
  table: ListingTable;
  listing: PagedListing;
  where: SQL | undefined;
  search: ListingSearch;
  counting: Counting;
  ranked: boolean;
}

/**
 * The rows of the page a listing asks for (by its cursor or page number), in relevance order or not, with
 * the order keys they were read by, the page they are (a cursor before the start reads page 1), and
 * whether more follow.
 */
async function readRows(
  db: Db,
  { table, listing, where, search, counting, ranked }: RowsRead,
): Promise<{ rows: Record<string, unknown>[]; keys: OrderKey[]; page: number; more: boolean }> {
  const { perPage } = listing.paging;
  const cursor = listing.cursor;
  const keys = orderOf(listing, ranked, search, table, await exactlyNamed(db, table, listing, search, ranked));
  const selection = selectionOf(table, keys);
  const select = (backwards: boolean, limit: number, offset = 0) =>
    readFromStart(db, { table, selection, where, keys, backwards, limit, offset });
  const beyond = (values: KeyValue[], backwards: boolean, limit: number) =>
    readBeyond(db, { table, selection, where, keys, values, backwards, limit });

  if (cursor?.direction === 'after') {
    const rows = await beyond(cursor.keys, false, perPage + 1);
    return { rows: rows.slice(0, perPage), keys, page: listing.paging.page, more: rows.length > perPage };
  }
  if (cursor?.direction === 'before') {
    const rows = (await beyond(cursor.keys, true, perPage + 1)).reverse();
    // Items before this page: not page 1, whatever the cursor numbered it (from the `last` page of an
    // estimated total, which may number too few pages), so that it still links back.
    const page = Math.max(listing.paging.page, 2);
    if (rows.length > perPage) return { rows: rows.slice(1), keys, page, more: true };
    // The start was reached (items before were deleted meanwhile): that is page 1, read as such.
    return { rows: await select(false, perPage), keys, page: 1, more: true };
  }
  if (cursor?.direction === 'last') {
    const { n } = await counting.total;
    const size = n - (Math.max(Math.ceil(n / perPage), 1) - 1) * perPage;
    const rows = size > 0 ? (await select(true, size)).reverse() : [];
    return { rows, keys, page: listing.paging.page, more: false };
  }
  // A direct jump: OFFSET reads every row before the page, so a deep jump costs more (docs/api.md).
  const { page } = listing.paging;
  const rows = await select(false, perPage + 1, (page - 1) * perPage);
  return { rows: rows.slice(0, perPage), keys, page, more: rows.length > perPage };
}

/**
 * Rows per batch of a whole-listing read: one query and one turn each (a few ms on PostgreSQL). A batch and
 * its text are what a stream holds, so this bounds its memory, in the wordiest format (MARCXML) too.
 */
export const STREAM_BATCH = 1000;

/**
 * Every item of a listing, in keyset batches: each batch is a short query of its own, so a slow reader
 * holds no connection or transaction between batches, and an item that exists throughout (with an
 * unchanged sort key) is read exactly once whatever is written meanwhile. The next batch is read while
 * the caller handles this one, so the database and the server work at the same time.
 */
export async function* readAll<Row>(
  database: Database,
  table: ListingTable,
  listing: Listing,
  scope: ListingScope = {},
  batchSize = STREAM_BATCH,
): AsyncGenerator<Row[]> {
  const { db, listingReads } = database;
  const search = await listingReads.run(() => planListingSearch(db, table, listing));
  const where = await listingReads.run(() => listingWhere(db, table, listing, scope.conditions, search));
  const ranked =
    isRankable(listing) &&
    (await listingReads.run(() => countUpTo(db, table.from, where, listing.countLimit))) <= listing.countLimit;
  const exactIds = await listingReads.run(() => exactlyNamed(db, table, listing, search, ranked));
  const keys = orderOf(listing, ranked, search, table, exactIds);
  const selection = selectionOf(table, keys);
  const readBatch = async (after: KeyValue[] | undefined) => {
    // Each batch takes its own turn: between two of them, other listings and every short request get in.
    // PGlite answers without touching the event loop, and a fast reader's socket never pushes back, so
    // without this pause a whole stream would run before the server even read another request.
    await new Promise((resolve) => setImmediate(resolve));
    return listingReads.run(
      () =>
        after
          ? readBeyond(db, { table, selection, where, keys, values: after, backwards: false, limit: batchSize })
          : readFromStart(db, { table, selection, where, keys, backwards: false, limit: batchSize, offset: 0 }),
      // The first batch is read before the response starts, so it may still be refused with a 503.
      { patiently: after !== undefined },
    );
  };
  let reading = readBatch(undefined);
  while (true) {
    const rows = await reading;
    const last = rows.at(-1);
    const more = last !== undefined && rows.length === batchSize;
    if (more) {
      reading = readBatch(keysOf(keys, last));
      // Awaited on the next round; a reader that stops before then must not leave its failure unhandled.
      reading.catch(() => {});
    }
    // The batch itself when no hidden key was read: its consumer may let rows go as it is done with them.
    if (rows.length > 0) yield withoutHidden(rows, table, keys) as Row[];
    if (!more) return;
  }
}

/**
 * The listing's `query` and `author` with their misspelt words corrected, when the answer should point to
 * them ("did you mean"): a word was corrected and the search found something, or a search written in web
 * search syntax (matched as written) found nothing and its corrected text finds something.
 */
async function correctedSearch(
  db: Db,
  table: ListingTable,
  listing: Listing,
  search: ListingSearch,
  total: number,
  scope: SQL[] = [],
): Promise<Correction | undefined> {
  const corrected: Correction = {
    ...(search.query?.corrected !== undefined && { query: search.query.corrected }),
    ...(search.author?.corrected !== undefined && { author: search.author.corrected }),
  };
  if (corrected.query === undefined && corrected.author === undefined) return undefined;
  if (total > 0) return search.query?.broadened || search.author?.broadened ? corrected : undefined;
  const where = await listingWhere(db, table, { ...listing, ...corrected }, scope);
  const found = rowsOf(await db.execute(sql`select 1 from ${table.from} where ${where ?? sql`true`} limit 1`));
  return found.length > 0 ? corrected : undefined;
}

/**
 * Total of a listing: a counter when unfiltered or filtered on one counted field (or, the same thing, by
 * `author=` alone naming few enough authors to list), else a bounded count, else the planner's estimate.
 */
function countItems(
  db: Db,
  table: ListingTable,
  listing: Listing,
  where: SQL | undefined,
  scope: ListingScope,
  authors: NamedAuthors | undefined,
  options: { estimateAtOnce: boolean; subset?: SQL },
): Counting {
  const { filters, countLimit } = listing;
  if (listing.query === undefined) {
    if (listing.author === undefined && filters.length === 0 && scope.counted) {
      return countedTotal(readCounter(db, scope.counted), countLimit);
    }
    const only = listing.author === undefined ? onlyFilter(filters) : authorsAsFilter(table, filters, authors);
    const counter = only && scope.countedBy?.[only.field];
    if (only && counter) return countedTotal(readCounter(db, counter(only.values)), countLimit);
  }
  return boundedCount(db, table.from, where, countLimit, options);
}

/** The one filter of a listing filtered on one field alone. */
function onlyFilter(filters: Filter[]): Filter | undefined {
  return filters.length === 1 ? filters[0] : undefined;
}

/** `author=` with no filter, naming few enough authors to list: a filter on the author column by their ids. */
function authorsAsFilter(
  table: ListingTable,
  filters: Filter[],
  authors: NamedAuthors | undefined,
): Filter | undefined {
  if (filters.length > 0 || !authors || !('ids' in authors) || !table.authorNamed) return undefined;
  const column = table.authorNamed.column;
  const field = Object.entries(table.columns as Record<string, PgColumn>).find(([, c]) => c === column)?.[0];
  return field === undefined ? undefined : { field, values: authors.ids };
}

/**
 * The ORDER BY keys: relevance then id for a ranked search; for a search past the ranked limit, the items
 * it names exactly first (an index finds them among any number of matches), then id; else the sort keys
 * then id.
 */
function orderOf(
  listing: Listing,
  ranked: boolean,
  search: ListingSearch,
  table: ListingTable,
  exactIds?: number[],
): OrderKey[] {
  if (ranked && search.query) {
    return [
      { expr: search.query.rank, field: RANK, descending: true },
      { expr: table.id, field: 'id', descending: false },
    ];
  }
  return [...(exactIds ? [tierKey(table, exactIds)] : []), ...sortKeysOf(listing, table)];
}

/** Up to this many items a search names exactly are listed first past the ranked limit, the first by id. */
const EXACT_FIRST = 1000;

/**
 * The ids of the items an unranked search names exactly (see `orderOf`), found by the exact keys' index;
 * `undefined` where its order has no such tier (a ranked or sorted listing, a collection without keys).
 * Looked up apart, and then asked for by id: asked for by key beside the search's words, the planner
 * would read the full-text index too, every match of them, to intersect the two.
 */
async function exactlyNamed(
  db: Db,
  table: ListingTable,
  listing: Listing,
  search: ListingSearch,
  ranked: boolean,
): Promise<number[] | undefined> {
  if (ranked || !listsExactFirst(table, listing)) return undefined;
  // Every search of a table with exact keys plans them (`listingTable` checks the table has them).
  const exact = search.query?.exact;
  if (!exact) return [];
  const rows = await db.select({ id: table.id }).from(table.from).where(exact).orderBy(table.id).limit(EXACT_FIRST);
  return rows.map((row) => row.id as number);
}

/** The tier key of an unranked search: 0 for the items it names exactly, 1 for the others. */
function tierKey(table: ListingTable, ids: number[]): OrderKey {
  if (ids.length === 0) return { expr: sql`1`, field: TIER, descending: false, tiers: [undefined, sql`true`] };
  const named = sql`${table.id} = any(${sql.param(ids)}::integer[])`;
  return {
    expr: sql`(case when ${named} then 0 else 1 end)`,
    field: TIER,
    descending: false,
    tiers: [named, sql`not (${named})`],
  };
}

/** The listing's sort keys, then id. */
function sortKeysOf(listing: Listing, table: ListingTable): OrderKey[] {
  return orderKeys(listing).map((key) => {
    const sort = (table.sorts as Record<string, SQL> | undefined)?.[key.field];
    return sort
      ? { expr: sort, field: sortColumn(key.field), descending: key.descending }
      : { ...key, expr: columnOf(table, key.field) };
  });
}

/** The keys read into hidden columns (expressions, not columns): the rank, and derived sorts. */
function hiddenKeys(table: ListingTable, keys: OrderKey[]): OrderKey[] {
  return keys.filter((key) => !(key.field in table.selection));
}

function selectionOf(table: ListingTable, keys: OrderKey[]): SelectedFields {
  const hidden = hiddenKeys(table, keys);
  if (hidden.length === 0) return table.selection;
  const selection: SelectedFields = { ...table.selection };
  for (const key of hidden) selection[key.field] = (key.expr as SQL).as(key.field);
  return selection;
}

/**
 * The rank is ordered by its output column, which every read selects: written out again, with parameters
 * of its own, PostgreSQL would not see it is the same expression and would score every match twice.
 */
function orderBy(keys: OrderKey[], backwards: boolean): SQL[] {
  return keys.map((key) =>
    (key.descending !== backwards ? desc : asc)(key.field === RANK ? sql.identifier(RANK) : key.expr),
  );
}

/** A read in a listing's order (or, backwards, against it): which rows, in which order, how many. */
interface OrderedRead {
  table: ListingTable;
  selection: SelectedFields;
  where: SQL | undefined;
  keys: OrderKey[];
  backwards: boolean;
  limit: number;
}

/** One query of a read: its rows that also meet `conditions`, in the order of `order`, the first `limit`. */
function orderedSelect(db: Db, read: OrderedRead, conditions: (SQL | undefined)[], order: OrderKey[], limit: number) {
  return db
    .select(read.selection)
    .from(read.table.from)
    .where(and(read.where, ...conditions))
    .orderBy(...orderBy(order, read.backwards))
    .limit(limit);
}

/** The first `limit` rows after `offset` of a listing in its order (or, backwards, the last). */
function readFromStart(db: Db, read: OrderedRead & { offset: number }): Promise<Record<string, unknown>[]> {
  const { keys, backwards, limit, offset } = read;
  const [first, ...rest] = keys;
  if (!first?.tiers) {
    return orderedSelect(db, read, [], keys, limit).offset(offset) as unknown as Promise<Record<string, unknown>[]>;
  }
  // Each tier as far as the page could reach into it, in the order of the keys after it.
  const tiers = (backwards ? [...first.tiers].reverse() : first.tiers).filter((tier) => tier !== undefined);
  const branches = tiers.map((tier) => orderedSelect(db, read, [tier], rest, limit + offset));
  return readUnion(db, branches, keys, backwards, limit, offset);
}

/** The branches' rows, each branch in the listing's order, merged into it: `limit` rows after `offset`. */
async function readUnion(
  db: Db,
  branches: SQLWrapper[],
  keys: OrderKey[],
  backwards: boolean,
  limit: number,
  offset = 0,
): Promise<Record<string, unknown>[]> {
  // The union is ordered again by the output columns (named as the API names the fields).
  const outer = keys.map(
    (key) => sql`${sql.identifier(key.field)} ${sql.raw(key.descending !== backwards ? 'desc' : 'asc')}`,
  );
  const union = sql.join(
    branches.map((branch) => sql`(${branch})`),
    sql` union all `,
  );
  const skip = offset > 0 ? sql` offset ${offset}` : sql``;
  const result = await db.execute(
    sql`select * from (${union}) as beyond order by ${sql.join(outer, sql`, `)} limit ${limit}${skip}`,
  );
  return rowsOf<Record<string, unknown>>(result);
}

/**
 * The first `limit` rows after (or, walking backwards, before) the row with the given key values, in the
 * listing's order. The rows beyond a row are the disjoint union, for each key i, of the rows equal to it
 * on the keys before i and beyond it on key i: each branch is one range of an index (a descending sort
 * keeps its id tie-break ascending, so no single row comparison could express it), read only as far as
 * the limit. A single `k1 <= v AND (k1 < v OR id > i)` would filter, row by row, every item sharing the
 * boundary's k1 value, a number that grows with the catalogue for a key like publication_year.
 */
async function readBeyond(db: Db, read: OrderedRead & { values: KeyValue[] }): Promise<Record<string, unknown>[]> {
  const { keys, values, backwards, limit } = read;
  const value = (i: number) => (keys[i]?.field === RANK ? sql`${values[i]}::real` : sql`${values[i]}`);
  // Equal to the boundary row on key j: a tier's own condition, else the key's value.
  const equal = (j: number) => {
    const key = keys[j] as OrderKey;
    return key.tiers ? tierOf(key, values[j]) : sql`${key.expr} = ${value(j)}`;
  };
  const branch = (conditions: (SQL | undefined)[], order: OrderKey[]) =>
    orderedSelect(db, read, conditions, order, limit);
  const branches = keys.flatMap((key, i) => {
    const equals = keys.slice(0, i).map((_, j) => equal(j));
    const ascending = key.descending === backwards;
    if (key.tiers) {
      // Past the boundary's tier: every later tier (earlier, backwards), each from its start.
      const boundary = values[i] as number;
      const beyond = key.tiers
        .map((tier, t) => ({ tier, t }))
        .filter(({ tier, t }) => tier !== undefined && (ascending ? t > boundary : t < boundary));
      return beyond.map(({ tier }) => branch([...equals, tier], keys.slice(i + 1)));
    }
    const past = ascending ? sql`${key.expr} > ${value(i)}` : sql`${key.expr} < ${value(i)}`;
    return [branch([...equals, past], keys.slice(i))];
  });
  return readUnion(db, branches, keys, backwards, limit);
}

/** The condition of a tier key's value (checked, where a cursor gave it, against the key's type). */
function tierOf(key: OrderKey, value: KeyValue | undefined): SQL {
  if (typeof value !== 'number' || !key.tiers || value < 0 || value >= key.tiers.length) {
    throw new Error(`no tier ${String(value)} in the listing's order`);
  }
  // A tier no row has now (the book a cursor's row was named by has been retitled since).
  return key.tiers[value] ?? sql`false`;
}

function keysOf(keys: OrderKey[], row: Record<string, unknown>): KeyValue[] {
  return keys.map((key) => row[key.field] as KeyValue);
}

/** The rows without the hidden columns of their order keys; the rows themselves when there are none. */
function withoutHidden(
  rows: Record<string, unknown>[],
  table: ListingTable,
  keys: OrderKey[],
): Record<string, unknown>[] {
  const hidden = hiddenKeys(table, keys).map((key) => key.field);
  if (hidden.length === 0) return rows;
  return rows.map((row) => {
    const rest = { ...row };
    for (const field of hidden) delete rest[field];
    return rest;
  });
}

function columnOf(table: ListingTable, field: string): PgColumn {
  const column = (table.columns as Record<string, PgColumn>)[field];
  if (!column) throw new Error(`no column for listing field ${field}`);
  return column;
}
