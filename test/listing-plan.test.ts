/**
 * The listing planner without a database: listing requests (as parsed from their query strings) and plain
 * facts about a collection in, the plan out. Which rows a page reads, in which order, over which key
 * ranges after a cursor, how its total is counted, and when a search is ranked.
 */
import { describe, expect, it } from 'vitest';
import {
  authorMatchOf,
  correctionOf,
  type ListingRequest,
  lastPageSize,
  NAMED_AUTHORS_LISTED,
  type NamedAuthorIds,
  namedAuthorsOf,
  orderOf,
  type PlannedKey,
  type PlanScope,
  type PlanTable,
  planPage,
  planStream,
  rangesBeyond,
  tiersFromStart,
} from '../src/db/queries/listing-plan.js';
import type { Cursor } from '../src/domain/cursor.js';
import { cursorFor, type ListingSpec, type PagedListing, parseListing } from '../src/domain/listing.js';
import { bookListingSpec, holdListingSpec, loanListingSpec } from '../src/domain/listings.js';

/** The books' mapping as the planner sees it (`bookListing.plan`). */
const books: PlanTable = {
  selected: ['id', 'title', 'publication_year', 'author_id', 'version', 'available', 'copies_available', 'isbn'],
  derivedSorts: [],
  exactFirst: true,
  authorNamed: true,
  authorField: 'author_id',
};
const holds: PlanTable = {
  selected: ['id', 'book_id', 'borrower_id', 'status', 'position'],
  derivedSorts: ['position'],
  exactFirst: false,
  authorNamed: false,
};
const loans: PlanTable = { selected: ['id', 'book_id'], derivedSorts: [], exactFirst: false, authorNamed: false };

/** The whole catalogue's books: counted, and by author and by year. */
const catalogue: PlanScope = { counted: true, countedBy: ['author_id', 'publication_year'], anchoredBy: [] };
const uncounted: PlanScope = { counted: false, countedBy: [], anchoredBy: [] };
/** The whole catalogue, with its counters per block of ids and per year (deep pages' anchors). */
const anchored: PlanScope = { ...catalogue, anchoredBy: ['id', 'publication_year'] };

function listing(spec: ListingSpec, query: string, cursor?: Omit<Cursor, 'fit'>): PagedListing {
  const params: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) params[name] = [...(params[name] ?? []), value];
  params.per_page ??= ['20'];
  const parsed = parseListing(spec, params);
  if (!cursor) return parsed as PagedListing;
  params.cursor = [cursorFor(parsed, cursor)];
  return parseListing(spec, params) as PagedListing;
}

function request(
  query: string,
  options: { cursor?: Omit<Cursor, 'fit'>; authors?: NamedAuthorIds; core?: boolean; scope?: PlanScope } = {},
): ListingRequest & { listing: PagedListing } {
  return {
    listing: listing(bookListingSpec, query, options.cursor),
    table: books,
    scope: options.scope ?? catalogue,
    search: { core: options.core ?? false, ...(options.authors && { authors: options.authors }) },
  };
}

const unranked = { by: 'decided', ranked: false } as const;
const bounded = (estimateAtOnce = false, subset = false) =>
  ({ kind: 'bounded', limit: 1000, estimateAtOnce, subset }) as const;
const offset = (page: number, perPage: number) =>
  ({ kind: 'offset', page, perPage, offset: (page - 1) * perPage, limit: perPage + 1 }) as const;

describe('a page of a listing', () => {
  it.each([
    ['the whole collection: its counter', request(''), { count: { kind: 'counter', limit: 1000 } }],
    [
      'one counted field: its counter for those values',
      request('filter=publication_year:1999&filter=publication_year:2001'),
      { count: { kind: 'counter-by', field: 'publication_year', values: [1999, 2001], limit: 1000 } },
    ],
    ['a field without a counter: counted up to the limit', request('filter=decade:1990'), { count: bounded() }],
    [
      'two counted fields: counted up to the limit',
      request('filter=author_id:3&filter=publication_year:1999'),
      { count: bounded() },
    ],
    [
      '`author=` naming few authors: their books by author counter',
      request('author=Tolkien', { authors: { ids: [3, 4] } }),
      { count: { kind: 'counter-by', field: 'author_id', values: [3, 4], limit: 1000 } },
    ],
    [
      '`author=` naming too many authors to list: counted up to the limit',
      request('author=A', { authors: { many: true } }),
      { count: bounded() },
    ],
    [
      '`author=` and a filter: counted up to the limit',
      request('author=Tolkien&filter=publication_year:1999', { authors: { ids: [3] } }),
      { count: bounded() },
    ],
    ['a scope without counters: counted up to the limit', request('', { scope: uncounted }), { count: bounded() }],
    ['a sort: by its counter still', request('sort=-publication_year'), { count: { kind: 'counter', limit: 1000 } }],
    ['`fields` changes nothing', request('fields=title,id'), { count: { kind: 'counter', limit: 1000 } }],
  ])('%s', (_, asked, expected) => {
    const plan = planPage(asked);
    expect(plan).toMatchObject({ ranking: unranked, rows: offset(1, 20), exactTier: false, ...expected });
  });

  it('ranks an unsorted search by its count, estimated at once, its core counted first, exact matches first if unranked', () => {
    expect(planPage(request('query=silent%20hous', { core: true }))).toEqual({
      ranking: { by: 'count' },
      count: bounded(true, true),
      rows: offset(1, 20),
      exactTier: true,
    });
  });

  it('never counts a search by a counter, even of the whole collection', () => {
    expect(planPage(request('query=silent')).count).toEqual(bounded(true, false));
  });

  it('does not rank a sorted search, nor lists its exact matches first', () => {
    expect(planPage(request('query=silent&sort=title'))).toMatchObject({
      ranking: unranked,
      count: bounded(false),
      exactTier: false,
    });
  });

  it.each([
    ['page 1', 'page=1&per_page=20', offset(1, 20)],
    ['a later page', 'page=3&per_page=10', offset(3, 10)],
    ['a page beyond the end (read, and found empty)', 'page=9999&per_page=100', offset(9999, 100)],
  ])('reads %s by offset, one row more than the page', (_, query, rows) => {
    expect(planPage(request(query)).rows).toEqual(rows);
  });

  it.each([
    ['in id order', 'page=300&per_page=20', 'id', false],
    ['newest added first', 'page=300&per_page=20&sort=-id', 'id', true],
    ['oldest first', 'page=300&per_page=20&sort=publication_year', 'publication_year', false],
    ['newest first', 'page=300&per_page=20&sort=-publication_year', 'publication_year', true],
  ])(
    'finds a deep page of the whole catalogue %s from the counters per range of its first key',
    (_, query, field, descending) => {
      expect(planPage({ ...request(query), scope: anchored }).rows).toEqual({
        kind: 'anchored',
        page: 300,
        perPage: 20,
        offset: 5980,
        limit: 21,
        field,
        descending,
      });
    },
  );

  it('reads the first pages by offset even where counters per range could find them', () => {
    expect(planPage({ ...request('page=205&per_page=20'), scope: anchored }).rows).toEqual(offset(205, 20));
  });

  it.each([
    ['sorted by a key without counters per range', 'page=300&per_page=20&sort=title', anchored],
    ['filtered', 'page=300&per_page=20&filter=language:eng', anchored],
    ['searched', 'page=300&per_page=20&query=garden', anchored],
    ['by author', 'page=300&per_page=20&author=Tolkien', anchored],
    ['without counters per range (an author\u2019s books)', 'page=300&per_page=20', uncounted],
  ])('refuses a page %s deeper than a jump may skip, naming the deepest page a number reaches', (_, query, scope) => {
    const asked = request(query, { scope });
    expect(planPage({ ...asked, listing: { ...asked.listing, jumpLimit: 1000 } }).rows).toEqual({
      kind: 'too-deep',
      page: 300,
      perPage: 20,
      deepest: 51,
    });
    // The deepest page skips exactly as many as a jump may.
    const deepest = request(query.replace('page=300', 'page=51'), { scope });
    expect(planPage({ ...deepest, listing: { ...deepest.listing, jumpLimit: 1000 } }).rows).toEqual(offset(51, 20));
  });

  it('reads a `next` cursor after its row, one more than a page, as the page it names', () => {
    const asked = request('sort=title&per_page=10', {
      cursor: { page: 4, direction: 'after', keys: ['Dune', 7], ranked: false },
    });
    expect(planPage(asked)).toMatchObject({
      ranking: unranked,
      rows: { kind: 'after', page: 4, perPage: 10, values: ['Dune', 7], limit: 11 },
    });
  });

  it('reads a `prev` cursor before its row, and never as page 1', () => {
    const asked = (page: number) =>
      request('sort=-publication_year&per_page=5', {
        cursor: { page, direction: 'before', keys: [1999, 12], ranked: false },
      });
    expect(planPage(asked(3)).rows).toEqual({ kind: 'before', page: 3, perPage: 5, values: [1999, 12], limit: 6 });
    expect(planPage(asked(1)).rows).toMatchObject({ kind: 'before', page: 2 });
  });

  it('reads the `last` cursor from the end', () => {
    const asked = request('per_page=5', { cursor: { page: 7, direction: 'last', keys: [], ranked: false } });
    expect(planPage(asked).rows).toEqual({ kind: 'last', page: 7, perPage: 5 });
  });

  it('keeps a search in the order its cursor carries: ranked, or not (then its exact matches first)', () => {
    const walk = (ranked: boolean) =>
      request('query=silent&per_page=5', {
        cursor: { page: 2, direction: 'after', keys: ranked ? [0.5, 9] : [1, 9], ranked },
      });
    expect(planPage(walk(true))).toMatchObject({ ranking: { by: 'decided', ranked: true }, count: bounded(false) });
    expect(planPage(walk(false))).toMatchObject({ ranking: unranked, exactTier: true });
  });
});

describe('a whole listing in batches', () => {
  const stream = (query: string, table = books) => ({
    listing: parseListing(
      bookListingSpec,
      Object.fromEntries([...new URLSearchParams(query)].map(([k, v]) => [k, [v]])),
    ),
    table,
    scope: catalogue,
    search: { core: false },
  });

  it('ranks an unsorted search when a count up to the limit finds no more', () => {
    expect(planStream(stream('query=silent'))).toEqual({
      ranking: { by: 'count-up-to', limit: 1000 },
      exactTier: true,
    });
  });

  it.each(['', 'sort=title', 'query=silent&sort=-id', 'filter=decade:1990'])('never ranks `%s`', (query) => {
    expect(planStream(stream(query)).ranking).toEqual(unranked);
  });
});

const key = (
  source: PlannedKey['source'],
  field: string,
  descending = false,
  column = field,
  hidden = false,
): PlannedKey => ({ source, field, column, descending, hidden });
const id = key('column', 'id');

describe('the order of a listing', () => {
  it('is relevance then id for a ranked search', () => {
    expect(orderOf(listing(bookListingSpec, 'query=silent'), books, true)).toEqual([
      key('rank', '_rank', true, '_rank', true),
      id,
    ]);
  });

  it('begins with the tier of the exact matches for a search past the ranked limit', () => {
    const tier = (named: boolean[]) => ({ ...key('tier', '_tier', false, '_tier', true), tiers: named });
    const search = listing(bookListingSpec, 'query=silent');
    expect(orderOf(search, books, false, 3)).toEqual([tier([true, true]), id]);
    // No item named exactly: no row is in the first tier.
    expect(orderOf(search, books, false, 0)).toEqual([tier([false, true]), id]);
  });

  it.each([
    ['', [id]],
    ['sort=-publication_year,title', [key('column', 'publication_year', true), key('column', 'title'), id]],
    ['sort=-id', [key('column', 'id', true)]],
    ['sort=-copies_available', [key('column', 'copies_available', true), id]],
  ])('is the sort keys then id: `%s`', (query, keys) => {
    expect(orderOf(listing(bookListingSpec, query), books, false)).toEqual(keys);
  });

  it('reads a derived sort into a hidden column', () => {
    expect(orderOf(listing(holdListingSpec, 'sort=-position'), holds, false)).toEqual([
      key('sort', 'position', true, '_by_position', true),
      id,
    ]);
  });

  it('is in id order for a collection never searched', () => {
    expect(orderOf(listing(loanListingSpec, ''), loans, false)).toEqual([id]);
  });
});

describe('the key ranges beyond a cursor', () => {
  const title = key('column', 'title');
  const year = key('column', 'publication_year', true);

  it('are one range per key, equal on the keys before it and past it on its own', () => {
    expect(rangesBeyond([title, id], ['Dune', 7], false)).toEqual([
      { equal: [], key: 0, beyond: { past: '>' }, orderFrom: 0 },
      { equal: [0], key: 1, beyond: { past: '>' }, orderFrom: 1 },
    ]);
  });

  it('walk a descending key downwards, and everything the other way backwards', () => {
    expect(rangesBeyond([year, id], [1999, 7], false).map((range) => range.beyond)).toEqual([
      { past: '<' },
      { past: '>' },
    ]);
    expect(rangesBeyond([year, id], [1999, 7], true).map((range) => range.beyond)).toEqual([
      { past: '>' },
      { past: '<' },
    ]);
  });

  const tier = (named: boolean) => ({ ...key('tier', '_tier', false, '_tier', true), tiers: [named, true] });

  it('pass from the exact matches to the others, each from its start, then walk within the tier', () => {
    expect(rangesBeyond([tier(true), id], [0, 7], false)).toEqual([
      { equal: [], key: 0, beyond: { tier: 1 }, orderFrom: 1 },
      { equal: [0], key: 1, beyond: { past: '>' }, orderFrom: 1 },
    ]);
    expect(rangesBeyond([tier(true), id], [1, 7], false)).toEqual([
      { equal: [0], key: 1, beyond: { past: '>' }, orderFrom: 1 },
    ]);
  });

  it('walk back into the exact matches only where there are any', () => {
    expect(rangesBeyond([tier(true), id], [1, 7], true).map((range) => range.beyond)).toEqual([
      { tier: 0 },
      { past: '<' },
    ]);
    expect(rangesBeyond([tier(false), id], [1, 7], true).map((range) => range.beyond)).toEqual([{ past: '<' }]);
  });

  it('read the tiers from the start apart, in the walk’s direction, only those any row can be in', () => {
    expect(tiersFromStart([tier(true), id], false)).toEqual([0, 1]);
    expect(tiersFromStart([tier(true), id], true)).toEqual([1, 0]);
    expect(tiersFromStart([tier(false), id], false)).toEqual([1]);
    expect(tiersFromStart([title, id], false)).toBeUndefined();
  });
});

describe('the rest of a plan', () => {
  it.each([
    [45, 20, 5],
    [40, 20, 20],
    [3, 20, 3],
    [0, 20, 0],
  ])('the last page of %i items, %i a page, holds %i', (total, perPage, size) => {
    expect(lastPageSize(total, perPage)).toBe(size);
  });

  it('asks for the authors `author=` names by id up to the limit, by their query beyond it', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(namedAuthorsOf(ids(NAMED_AUTHORS_LISTED))).toEqual({ ids: ids(NAMED_AUTHORS_LISTED) });
    expect(namedAuthorsOf(ids(NAMED_AUTHORS_LISTED + 1))).toEqual({ many: true });
    expect(authorMatchOf({ ids: [4] })).toBe('ids');
    expect(authorMatchOf({ ids: [] })).toBe('none');
    expect(authorMatchOf({ many: true })).toBe('query');
  });

  it('points to a corrected search that found something, and checks one that found nothing', () => {
    const broadened = { query: { corrected: 'silent river', broadened: true } };
    expect(correctionOf(broadened, 12)).toEqual({ kind: 'point', corrected: { query: 'silent river' } });
    expect(correctionOf(broadened, 0)).toEqual({ kind: 'check', corrected: { query: 'silent river' } });
    // Written in search syntax, matched as written: pointed to only when it finds nothing as written.
    expect(correctionOf({ query: { corrected: 'river', broadened: false } }, 3)).toEqual({ kind: 'none' });
    expect(correctionOf({ query: { broadened: false }, author: { broadened: false } }, 0)).toEqual({ kind: 'none' });
    expect(correctionOf({ author: { corrected: 'Tolkien', broadened: true } }, 2)).toEqual({
      kind: 'point',
      corrected: { author: 'Tolkien' },
    });
  });
});
