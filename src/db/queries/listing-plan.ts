/**
 * @module The listing planner: from a validated `Listing` and plain facts about its collection, how it is
 * read (a keyset walk after or before a cursor's row, from the end, or an offset), in which order (relevance,
 * the exact matches' tier, the sort keys, id), over which key ranges, and how its total is counted (a counter,
 * or a count bounded by the limit then estimated). Plain data in and out, no database: `listing.ts` builds
 * and runs the statements a plan names.
 */
import type { KeyValue } from '../../domain/cursor.js';
import {
  type Filter,
  isRankable,
  type Listing,
  listsExactFirst,
  orderKeys,
  type PagedListing,
} from '../../domain/listing.js';

/** What the planner knows of a collection's table mapping (`ListingTable`), as plain data. */
export interface PlanTable {
  /** The names each item's row reads: an order key outside them is read into a hidden column. */
  selected: readonly string[];
  /** The spec's derived sorts (a hold's `position`): ordered by an expression, read into a hidden column. */
  derivedSorts: readonly string[];
  /** Whether a search past the ranked limit lists the items it names exactly first (`ListingSpec.exactFirst`). */
  exactFirst: boolean;
  /** Whether `author=` applies to the collection. */
  authorNamed: boolean;
  /** The field naming an item's author, where `author=` applies: its ids can be counted as a filter on it. */
  authorField?: string;
}

/** What the planner knows of a listing's scope (`ListingScope`): which counters answer its totals. */
export interface PlanScope {
  /** A counter answers the number of items in scope. */
  counted: boolean;
  /** The fields whose counters answer how many items in scope have any of some values of theirs. */
  countedBy: readonly string[];
  /**
   * The fields whose counters per range of values (`ListingScope.anchors`) find where a page=N jump of the
   * whole scope in that field's order begins (then id order), without reading the items before it.
   */
  anchoredBy: readonly string[];
}

/**
 * The authors `author=` names, as found: their ids when few enough to list (`NAMED_AUTHORS_LISTED`), else
 * too many to list (they are then asked for by their query).
 */
export type NamedAuthorIds = { ids: number[] } | { many: true };

/** What was learnt planning the listing's search (`planListingSearch`). */
export interface PlanSearch {
  /** The search's last word is matched as a prefix, and its core (the word whole) can be counted first. */
  core: boolean;
  /** The authors `author=` names, where it applies. */
  authors?: NamedAuthorIds;
}

/** One listing to plan: the request and the facts about its collection. */
export interface ListingRequest {
  listing: Listing;
  table: PlanTable;
  scope: PlanScope;
  search: PlanSearch;
}

/**
 * Whether the listing is ordered by relevance: decided (an unsorted search's cursor carries it, anything
 * else is not ranked), or by its count (an unsorted search is ranked when it has no more matches than the
 * limit; ranking them all then stays cheap).
 */
export type Ranking = { by: 'decided'; ranked: boolean } | { by: 'count' };

/** How a listing's total is counted. */
export type CountPlan =
  /** The scope's counter, exact in constant time: a listing of the whole scope. */
  | { kind: 'counter'; limit: number }
  /** A counter by a field's values: a listing filtered on that field alone (or named authors, as one). */
  | { kind: 'counter-by'; field: string; values: Filter['values']; limit: number }
  /**
   * Counted up to `limit + 1`, past it the planner's estimate: asked for at once when the count decides the
   * ranking (`estimateAtOnce`), and with the search's core counted first where it has one (`subset`).
   */
  | { kind: 'bounded'; limit: number; estimateAtOnce: boolean; subset: boolean };

/** Which rows of a page are read. */
export type RowsPlan =
  /** Page `page` by number: the first `limit` rows after `offset` (one more than a page, to see if more follow). */
  | { kind: 'offset'; page: number; perPage: number; offset: number; limit: number }
  /** A `next` cursor: the rows after its row, in the listing's order, one more than a page. */
  | { kind: 'after'; page: number; perPage: number; values: KeyValue[]; limit: number }
  /**
   * A `prev` cursor: the rows before its row, walking backwards, one more than a page. Never page 1 while
   * items precede it (from the `last` page of an estimated total, which may number too few pages); when
   * none do any longer, the page is read from the start as page 1.
   */
  | { kind: 'before'; page: number; perPage: number; values: KeyValue[]; limit: number }
  /** The `last` cursor: the last page, read backwards from the end, its size from the total (`lastPageSize`). */
  | { kind: 'last'; page: number; perPage: number }
  /**
   * Page `page` by number, deep in the order of a field with counters per range of its values: the range
   * the page begins in is found from them, and the page read from that range's start, skipping `offset`
   * less the items of the ranges before it.
   */
  | {
      kind: 'anchored';
      page: number;
      perPage: number;
      offset: number;
      limit: number;
      field: string;
      descending: boolean;
    }
  /**
   * Page `page` by number, deeper than a jump may skip (`Listing.jumpLimit`) in an order with no such
   * counters: refused, naming `deepest`, the deepest page a number reaches, from which `next` links lead on;
   * empty when the listing's total says it is past the end.
   */
  | { kind: 'too-deep'; page: number; perPage: number; deepest: number };

/** How `author=` is matched: by the named authors' ids, by their query (too many to list), or by none. */
export type AuthorMatch = 'ids' | 'query' | 'none';

/** The plan of one page of a listing. */
export interface PagePlan {
  ranking: Ranking;
  count: CountPlan;
  rows: RowsPlan;
  /** Where the listing is not ranked, whether its order begins with the tier of the items named exactly. */
  exactTier: boolean;
}

/** The plan of a whole listing read in batches. */
export interface StreamPlan {
  /** An unsorted search is ranked when a count up to the limit finds no more than it; else never. */
  ranking: { by: 'decided'; ranked: false } | { by: 'count-up-to'; limit: number };
  exactTier: boolean;
}

/**
 * Authors named by `author=` are looked up first, up to this many, and the listing then asks for their ids,
 * sent as one array: the planner, which cannot tell how many authors a prefix matches (it guesses 2% of
 * them), then knows whether to read those authors' books (a few) or to walk the listing's order (many),
 * and tests each row it walks against a hash of the ids. Their total is then read from the counters of
 * books per author, exactly. Beyond this many, the listing asks for the authors' query instead, whose
 * test looks the author up for every row walked, an order of magnitude slower than testing ids at a
 * million books, and its total is a bounded count. Two thousand ids take about as long to send, plan and
 * count as that walk (docs/architecture.md has the figures).
 */
export const NAMED_AUTHORS_LISTED = 2000;

/** The authors found for `author=` (up to one more than are listed), as the plan uses them. */
export function namedAuthorsOf(found: number[]): NamedAuthorIds {
  return found.length > NAMED_AUTHORS_LISTED ? { many: true } : { ids: found };
}

/** `author=` matched by the named authors' ids, by their query when too many, or by nothing when none. */
export function authorMatchOf(named: NamedAuthorIds): AuthorMatch {
  if ('many' in named) return 'query';
  return named.ids.length === 0 ? 'none' : 'ids';
}

/** Plans one page of a listing. */
export function planPage(request: ListingRequest & { listing: PagedListing }): PagePlan {
  const { listing, table } = request;
  const cursor = listing.cursor;
  const ranking: Ranking = cursor
    ? { by: 'decided', ranked: cursor.ranked }
    : isRankable(listing)
      ? { by: 'count' }
      : { by: 'decided', ranked: false };
  return {
    ranking,
    count: countPlan(request, ranking.by === 'count'),
    rows: rowsPlan(listing, listing.paging, anchorOf(request)),
    exactTier: listsExactFirst(table, listing),
  };
}

/** Plans a whole listing read in batches (its order; the batches walk it from the start). */
export function planStream(request: ListingRequest): StreamPlan {
  const { listing, table } = request;
  return {
    ranking: isRankable(listing) ? { by: 'count-up-to', limit: listing.countLimit } : { by: 'decided', ranked: false },
    exactTier: listsExactFirst(table, listing),
  };
}

/**
 * A counter when unfiltered or filtered on one counted field (or, the same thing, by `author=` alone naming
 * few enough authors to list), else a bounded count, then the planner's estimate. A search is never counted
 * by a counter.
 */
function countPlan({ listing, table, scope, search }: ListingRequest, estimateAtOnce: boolean): CountPlan {
  const { filters, countLimit: limit } = listing;
  if (listing.query === undefined) {
    if (listing.author === undefined && filters.length === 0 && scope.counted) return { kind: 'counter', limit };
    const only = listing.author === undefined ? onlyFilter(filters) : authorsAsFilter(table, filters, search.authors);
    if (only && scope.countedBy.includes(only.field)) {
      return { kind: 'counter-by', field: only.field, values: only.values, limit };
    }
  }
  return { kind: 'bounded', limit, estimateAtOnce, subset: search.core };
}

/** The one filter of a listing filtered on one field alone. */
function onlyFilter(filters: Filter[]): Filter | undefined {
  return filters.length === 1 ? filters[0] : undefined;
}

/** `author=` with no filter, naming few enough authors to list: a filter on the author field by their ids. */
function authorsAsFilter(table: PlanTable, filters: Filter[], authors: NamedAuthorIds | undefined): Filter | undefined {
  if (filters.length > 0 || !authors || !('ids' in authors) || !table.authorNamed) return undefined;
  return table.authorField === undefined ? undefined : { field: table.authorField, values: authors.ids };
}

/**
 * Items a page=N jump skips before it looks for an anchor: the first pages are read by OFFSET, as cheap
 * as the extra query an anchor needs (a block of ids holds 4,096 items).
 */
export const ANCHORED_FROM = 4096;

/**
 * The field whose counters per range find a deep page of the listing: a listing of the whole scope (no
 * search, filter or `author=`) ordered by that field alone, then by id.
 */
function anchorOf({ listing, scope }: ListingRequest): { field: string; descending: boolean } | undefined {
  if (listing.query !== undefined || listing.author !== undefined || listing.filters.length > 0) return undefined;
  const [first, ...rest] = orderKeys(listing);
  if (!first || !scope.anchoredBy.includes(first.field)) return undefined;
  if (rest.some((key) => key.field !== 'id' || key.descending)) return undefined;
  return { field: first.field, descending: first.descending };
}

function rowsPlan(
  listing: Listing,
  { page, perPage }: { page: number; perPage: number },
  anchor: { field: string; descending: boolean } | undefined,
): RowsPlan {
  const cursor = listing.cursor;
  if (cursor?.direction === 'after') return { kind: 'after', page, perPage, values: cursor.keys, limit: perPage + 1 };
  if (cursor?.direction === 'before') {
    return { kind: 'before', page: Math.max(page, 2), perPage, values: cursor.keys, limit: perPage + 1 };
  }
  if (cursor?.direction === 'last') return { kind: 'last', page, perPage };
  // A direct jump: OFFSET reads every row before the page, as far as the jump limit; past it, an order with
  // counters per range starts from the range the page is in, and any other is refused (docs/api.md).
  const offset = (page - 1) * perPage;
  if (anchor && offset >= ANCHORED_FROM)
    return { kind: 'anchored', page, perPage, offset, limit: perPage + 1, ...anchor };
  if (listing.jumpLimit !== undefined && offset > listing.jumpLimit) {
    return { kind: 'too-deep', page, perPage, deepest: Math.floor(listing.jumpLimit / perPage) + 1 };
  }
  return { kind: 'offset', page, perPage, offset, limit: perPage + 1 };
}

/** How many items the last page of `total` holds (none for an empty listing). */
export function lastPageSize(total: number, perPage: number): number {
  return total - (Math.max(Math.ceil(total / perPage), 1) - 1) * perPage;
}

/** The relevance rank's hidden column. */
export const RANK = '_rank';
/** A search past the ranked limit: 0 for the items it names exactly, 1 for the others (`orderOf`). */
export const TIER = '_tier';

/** The hidden column a derived sort's value is read into. */
const sortColumn = (field: string) => `_by_${field}`;

/** One key of a listing's order. */
export interface PlannedKey {
  /** What it orders by: the relevance rank, the exact matches' tier, a field's column, or a derived sort. */
  source: 'rank' | 'tier' | 'column' | 'sort';
  /** The field (or derived sort) ordered by; for the rank and the tier, their hidden column. */
  field: string;
  /** The row's column holding the key's value: the field's own, or a hidden one. */
  column: string;
  descending: boolean;
  /** Read into a column of its own, not among the item's (then left out of the rows handed on). */
  hidden: boolean;
  /**
   * A key of a few values (the tier: 0, 1): whether any row can have each. The rows of each are read apart,
   * in the order of the keys after it, each by an index, rather than by sorting every match on this key.
   */
  tiers?: boolean[];
}

/**
 * The ORDER BY keys: relevance then id for a ranked search; for a search past the ranked limit, the items
 * it names exactly first (an index finds them among any number of matches; `exactlyNamed` is how many,
 * where the plan has that tier), then id; else the sort keys then id.
 */
export function orderOf(listing: Listing, table: PlanTable, ranked: boolean, exactlyNamed?: number): PlannedKey[] {
  if (ranked && listing.query !== undefined) {
    return [
      { source: 'rank', field: RANK, column: RANK, descending: true, hidden: true },
      keyOf(table, 'column', 'id', 'id', false),
    ];
  }
  const tier: PlannedKey[] =
    exactlyNamed === undefined
      ? []
      : [
          {
            source: 'tier',
            field: TIER,
            column: TIER,
            descending: false,
            hidden: true,
            tiers: [exactlyNamed > 0, true],
          },
        ];
  const sorts = orderKeys(listing).map((key) =>
    table.derivedSorts.includes(key.field)
      ? keyOf(table, 'sort', key.field, sortColumn(key.field), key.descending)
      : keyOf(table, 'column', key.field, key.field, key.descending),
  );
  return [...tier, ...sorts];
}

function keyOf(
  table: PlanTable,
  source: 'column' | 'sort',
  field: string,
  column: string,
  descending: boolean,
): PlannedKey {
  return { source, field, column, descending, hidden: !table.selected.includes(column) };
}

/** Which end a key is walked from: ascending when its direction and the walk's agree. */
const ascending = (key: PlannedKey, backwards: boolean) => key.descending === backwards;

/**
 * The tiers a read from the start (or, backwards, the end) reads apart, in the order read, when the order
 * begins with a tier key; `undefined` when it does not (one read in the listing's order).
 */
export function tiersFromStart(keys: PlannedKey[], backwards: boolean): number[] | undefined {
  const tiers = keys[0]?.tiers;
  if (!tiers) return undefined;
  const present = tiers.flatMap((can, t) => (can ? [t] : []));
  return backwards ? present.reverse() : present;
}

/**
 * One range of the rows beyond a cursor's row: equal to it on the keys before `key`, and beyond it on
 * `key` (past its value, or in a later tier), read in the order of the keys from `orderFrom` on.
 */
export interface KeyRange {
  /** The keys (by index) on which the range's rows equal the boundary row. */
  equal: number[];
  key: number;
  /** Past the boundary row's value of `key`, in the walk's direction; or, for a tier key, that tier. */
  beyond: { past: '>' | '<' } | { tier: number };
  orderFrom: number;
}

/**
 * The rows beyond (or, walking backwards, before) a row are the disjoint union, for each key i, of the rows
 * equal to it on the keys before i and beyond it on key i: each range is one range of an index (a
 * descending sort keeps its id tie-break ascending, so no single row comparison could express it), read
 * only as far as the limit. A single `k1 <= v AND (k1 < v OR id > i)` would filter, row by row, every item
 * sharing the boundary's k1 value, a number that grows with the catalogue for a key like publication_year.
 */
export function rangesBeyond(keys: PlannedKey[], boundary: KeyValue[], backwards: boolean): KeyRange[] {
  return keys.flatMap((key, i): KeyRange[] => {
    const equal = keys.slice(0, i).map((_, j) => j);
    const up = ascending(key, backwards);
    if (key.tiers) {
      // Past the boundary's tier: every later tier (earlier, backwards), each from its start.
      const at = boundary[i] as number;
      return key.tiers
        .map((can, tier) => ({ can, tier }))
        .filter(({ can, tier }) => can && (up ? tier > at : tier < at))
        .map(({ tier }) => ({ equal, key: i, beyond: { tier }, orderFrom: i + 1 }));
    }
    return [{ equal, key: i, beyond: { past: up ? '>' : '<' }, orderFrom: i }];
  });
}

/** The search's corrections as the answer treats them. */
export interface Corrections {
  query?: { corrected?: string; broadened: boolean };
  author?: { corrected?: string; broadened: boolean };
}

/**
 * Whether the answer points to the listing's `query` and `author` with their misspelt words corrected
 * ("did you mean"): when a word was corrected and the search found something; when a search written in web
 * search syntax (matched as written) found nothing, only if its corrected text finds something (`check`).
 */
export function correctionOf(
  search: Corrections,
  total: number,
): { kind: 'none' } | { kind: 'point' | 'check'; corrected: { query?: string; author?: string } } {
  const corrected = {
    ...(search.query?.corrected !== undefined && { query: search.query.corrected }),
    ...(search.author?.corrected !== undefined && { author: search.author.corrected }),
  };
  if (corrected.query === undefined && corrected.author === undefined) return { kind: 'none' };
  if (total > 0)
    return search.query?.broadened || search.author?.broadened ? { kind: 'point', corrected } : { kind: 'none' };
  return { kind: 'check', corrected };
}
