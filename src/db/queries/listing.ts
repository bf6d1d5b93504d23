/**
 * @module Runs a validated `Listing` for any collection, as its plan (`listing-plan.ts`) says: its WHERE,
 * one page (keyset cursor, or offset for `page=N`, `listing-reads.ts`) and its total, or the whole listing
 * in batches.
 */
import { and, gte, lte, type SQL } from 'drizzle-orm';
import type { KeyValue } from '../../domain/cursor.js';
import { PageTooDeep } from '../../domain/errors.js';
import type { Listing, PagedListing, PageFacts } from '../../domain/listing.js';
import type { Database, Db } from '../client.js';
import { boundedCount, type Counting, countedTotal, countUpTo, readCounter } from './counts.js';
import { type AnchorQuery, readAnchor } from './listing-anchors.js';
import {
  type CountPlan,
  type ListingRequest,
  lastPageSize,
  orderOf,
  type PagePlan,
  planPage,
  planStream,
} from './listing-plan.js';
import {
  keysOf,
  type OrderedRead,
  type OrderKey,
  readBeyond,
  readFromStart,
  selectionOf,
  tierExpression,
  withoutHidden,
} from './listing-reads.js';
import { columnOf, type ListingScope, type ListingTable } from './listing-table.js';
import { correctedSearch, type ListingSearch, listingWhere, planListingSearch, withQuery } from './listing-where.js';
import type { SearchPlan } from './search.js';

// The collections' queries and the facets name a listing's mapping, scope and WHERE through this module.
export { type ListingMapping, type ListingScope, type ListingTable, listingTable } from './listing-table.js';
export { listingWhere } from './listing-where.js';

/** One page as read: its rows, the total, and what its paging links need. */
export type PageRead<Row> = PageFacts & { rows: Row[] };

/** The listing as the planner reads it: plain facts of its table, scope and search. */
function requestOf<L extends Listing>(
  table: ListingTable,
  listing: L,
  scope: ListingScope,
  search: ListingSearch,
): ListingRequest & { listing: L } {
  const authors = search.authors && ('query' in search.authors ? { many: true as const } : search.authors);
  return {
    listing,
    table: table.plan,
    scope: {
      counted: scope.counted !== undefined,
      countedBy: Object.keys(scope.countedBy ?? {}),
      anchoredBy: Object.keys(scope.anchors ?? {}),
    },
    search: { core: search.query?.core !== undefined, ...(authors && { authors }) },
  };
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
  const plan = planPage(requestOf(table, listing, scope, search));
  // The count runs alongside the page's read (past the limit, the planner's estimate does).
  const core = search.query?.core;
  const subset = core && (await listingWhere(db, table, listing, scope.conditions, withQuery(search, core)));
  const counting = countItems(db, table, plan.count, where, scope, subset);
  const read = (ranked: boolean) => readRows(db, { table, listing, plan, where, search, counting, ranked, scope });
  const byCount = plan.ranking.by === 'count';
  // Where the planner expects far more matches than are ranked, the unranked page is read while they are
  // counted, rather than after: the count of a common word's matches takes as long as the read.
  const early = byCount && (await counting.farBeyondLimit) ? read(false) : undefined;
  early?.catch(() => {}); // Not awaited when the count says the search is ranked after all.
  const ranked = plan.ranking.by === 'decided' ? plan.ranking.ranked : await counting.withinLimit;
  const total = ranked && byCount ? await counting.total : undefined;
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
    rows: withoutHidden(rows, keys) as Row[],
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
  plan: PagePlan;
  where: SQL | undefined;
  search: ListingSearch;
  counting: Counting;
  ranked: boolean;
  scope: ListingScope;
}

/**
 * The rows of the page the plan names, in relevance order or not, with the order keys they were read by,
 * the page they are (a cursor before the start reads page 1), and whether more follow.
 */
async function readRows(
  db: Db,
  { table, listing, plan, where, search, counting, ranked, scope }: RowsRead,
): Promise<{ rows: Record<string, unknown>[]; keys: OrderKey[]; page: number; more: boolean }> {
  const exactIds = await exactlyNamed(db, table, search, plan.exactTier && !ranked);
  const keys = orderKeysOf(table, listing, search, ranked, exactIds);
  const read: OrderedRead = {
    from: table.from,
    selection: selectionOf(table.selection, keys),
    where,
    keys,
    backwards: false,
    limit: 0,
  };
  const select = (backwards: boolean, limit: number, offset = 0) =>
    readFromStart(db, { ...read, backwards, limit, offset });
  const beyond = (values: KeyValue[], backwards: boolean, limit: number) =>
    readBeyond(db, { ...read, values, backwards, limit });

  const rowsPlan = plan.rows;
  const { perPage } = rowsPlan;
  switch (rowsPlan.kind) {
    case 'after': {
      const rows = await beyond(rowsPlan.values, false, rowsPlan.limit);
      return { rows: rows.slice(0, perPage), keys, page: rowsPlan.page, more: rows.length > perPage };
    }
    case 'before': {
      const rows = (await beyond(rowsPlan.values, true, rowsPlan.limit)).reverse();
      if (rows.length > perPage) return { rows: rows.slice(1), keys, page: rowsPlan.page, more: true };
      // The start was reached (items before were deleted meanwhile): that is page 1, read as such.
      return { rows: await select(false, perPage), keys, page: 1, more: true };
    }
    case 'last': {
      const size = lastPageSize((await counting.total).n, perPage);
      const rows = size > 0 ? (await select(true, size)).reverse() : [];
      return { rows, keys, page: rowsPlan.page, more: false };
    }
    case 'offset': {
      const rows = await select(false, rowsPlan.limit, rowsPlan.offset);
      return { rows: rows.slice(0, perPage), keys, page: rowsPlan.page, more: rows.length > perPage };
    }
    case 'anchored': {
      const anchorQuery = scope.anchors?.[rowsPlan.field] as AnchorQuery;
      const anchor = await readAnchor(db, anchorQuery(rowsPlan.offset, rowsPlan.descending));
      // Past the last item: an empty page, as an OFFSET past the end answers.
      if (!anchor) return { rows: [], keys, page: rowsPlan.page, more: false };
      const column = columnOf(table, rowsPlan.field);
      const within = rowsPlan.descending ? lte(column, anchor.from) : gte(column, anchor.from);
      const rows = await readFromStart(db, {
        ...read,
        where: and(where, within),
        limit: rowsPlan.limit,
        offset: rowsPlan.offset - anchor.before,
      });
      return { rows: rows.slice(0, perPage), keys, page: rowsPlan.page, more: rows.length > perPage };
    }
    case 'too-deep': {
      // A page past the end is empty, however deep, as it is by offset; one with items is refused.
      const past = (rowsPlan.page - 1) * perPage >= (await counting.total).n;
      if (past) return { rows: [], keys, page: rowsPlan.page, more: false };
      throw new PageTooDeep(rowsPlan.page, rowsPlan.deepest);
    }
  }
}

/**
 * Rows per batch of a whole-listing read: one query and one turn each (a few ms on PostgreSQL). A batch and
 * its text are what a stream holds, so this bounds its memory, in the wordiest format (MARCXML) too.
 */
export const STREAM_BATCH = 1000;

/**
 * Rows per batch where each row is a few short columns and its state already written as JSON text (about
 * 450 bytes a book): four times as many rows hold no more than a batch of full rows, and a quarter of the
 * queries spends a quarter of the time planning them and waking the database (docs/performance/stream.md).
 */
export const STATE_JSON_STREAM_BATCH = 4000;

/** How a stream's rows may be read for the format writing them. */
export interface StreamReading {
  /** The format takes a member's state as JSON text (`Format.takesStateJson`), which the database may write. */
  stateJson: boolean;
}

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
  const plan = planStream(requestOf(table, listing, scope, search));
  const { ranking } = plan;
  const ranked =
    ranking.by === 'count-up-to' &&
    (await listingReads.run(() => countUpTo(db, table.from, where, ranking.limit))) <= ranking.limit;
  const exactIds = await listingReads.run(() => exactlyNamed(db, table, search, plan.exactTier && !ranked));
  const keys = orderKeysOf(table, listing, search, ranked, exactIds);
  const read: OrderedRead = {
    from: table.from,
    selection: selectionOf(table.selection, keys),
    where,
    keys,
    backwards: false,
    limit: batchSize,
  };
  const readBatch = async (after: KeyValue[] | undefined) => {
    // Each batch takes its own turn: between two of them, other listings and every short request get in.
    // PGlite answers without touching the event loop, and a fast reader's socket never pushes back, so
    // without this pause a whole stream would run before the server even read another request.
    await new Promise((resolve) => setImmediate(resolve));
    return listingReads.run(
      () => (after ? readBeyond(db, { ...read, values: after }) : readFromStart(db, { ...read, offset: 0 })),
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
    if (rows.length > 0) yield withoutHidden(rows, keys) as Row[];
    if (!more) return;
  }
}

/** The listing's total, counted as its plan says (see `CountPlan`). */
function countItems(
  db: Db,
  table: ListingTable,
  count: CountPlan,
  where: SQL | undefined,
  scope: ListingScope,
  subset: SQL | undefined,
): Counting {
  if (count.kind === 'counter' && scope.counted) return countedTotal(readCounter(db, scope.counted), count.limit);
  const counter = count.kind === 'counter-by' ? scope.countedBy?.[count.field] : undefined;
  if (count.kind === 'counter-by' && counter) {
    return countedTotal(readCounter(db, counter(count.values)), count.limit);
  }
  const estimateAtOnce = count.kind === 'bounded' && count.estimateAtOnce;
  return boundedCount(db, table.from, where, count.limit, { estimateAtOnce, ...(subset && { subset }) });
}

/** Up to this many items a search names exactly are listed first past the ranked limit, the first by id. */
const EXACT_FIRST = 1000;

/**
 * The ids of the items an unranked search names exactly, where its order begins with their tier (`wanted`),
 * found by the exact keys' index; else `undefined`. Looked up apart, and then asked for by id: asked for by
 * key beside the search's words, the planner would read the full-text index too, every match of them, to
 * intersect the two.
 */
async function exactlyNamed(
  db: Db,
  table: ListingTable,
  search: ListingSearch,
  wanted: boolean,
): Promise<number[] | undefined> {
  if (!wanted) return undefined;
  // Every search of a table with exact keys plans them (`listingTable` checks the table has them).
  const exact = search.query?.exact;
  if (!exact) return [];
  const rows = await db.select({ id: table.id }).from(table.from).where(exact).orderBy(table.id).limit(EXACT_FIRST);
  return rows.map((row) => row.id as number);
}

/** The listing's order (`orderOf`) as SQL: each key's expression, and the tier's conditions. */
function orderKeysOf(
  table: ListingTable,
  listing: Listing,
  search: ListingSearch,
  ranked: boolean,
  exactIds: number[] | undefined,
): OrderKey[] {
  return orderOf(listing, table.plan, ranked, exactIds?.length).map((key): OrderKey => {
    if (key.source === 'rank') return { ...key, expr: (search.query as SearchPlan).rank };
    if (key.source === 'tier') return { ...key, ...tierExpression(table.id, exactIds ?? []) };
    if (key.source === 'sort') return { ...key, expr: (table.sorts as Record<string, SQL>)[key.field] as SQL };
    return { ...key, expr: columnOf(table, key.field) };
  });
}
