/**
 * @module The listing conventions shared by every collection: parsing and validating `page`, `per_page`,
 * `cursor`, `sort`, `filter`, `author`, `query`, `fields` and `facets` into a `Listing`, and turning one
 * back into query parameters for paging links. Invalid input is rejected naming the parameter.
 */
import { type Cursor, decodeCursor, encodeCursor, fingerprint, type KeyType, type KeyValue } from './cursor.js';
import { InvalidInput } from './errors.js';
import { type FacetName, facetFilters } from './facets.js';
import { identifierFormats } from './identifiers.js';
import type { FieldFormat } from './input.js';
import {
  DEFAULT_PER_PAGE,
  EXACT_COUNT_LIMIT,
  INT4_MAX,
  MAX_PAGE,
  MAX_PER_PAGE,
  MAX_QUERY_PARAM_LENGTH,
  MAX_SEARCH_WORDS,
} from './limits.js';

/** What a collection offers to listing parameters. */
export interface ListingSpec {
  /** Item fields by type; every one can be sorted on, filtered on and selected with `fields`. */
  fields: Readonly<Record<string, 'string' | 'integer'>>;
  /**
   * Properties that can be filtered on (not sorted): booleans, a fixed set of values, steps, or text
   * (an identifier read as its field reads it).
   */
  filters?: Readonly<Record<string, 'boolean' | readonly string[] | IntegerSteps | TextFilter>>;
  /** Derived properties that can be sorted on (not filtered), by type; `extraFields` names them too. */
  sorts?: Readonly<Record<string, 'string' | 'integer'>>;
  /** Further item fields that `fields` may select (derived or timestamps), neither sorted nor filtered. */
  extraFields?: readonly string[];
  /** Whether the `author` parameter (words of the author's name, as typed) applies. */
  author: boolean;
  /** Whether the `query` parameter (full-text search) applies; it does unless this is false. */
  search?: boolean;
  /**
   * Whether a search past the ranked limit lists the items it names exactly (a book's whole title, an
   * author's whole name) first, then the others in id order; else it is in id order alone.
   */
  exactFirst?: boolean;
  /**
   * The orders a person picks from, labelled, in the order to offer them: each a `sort` value, `''` for the
   * listing's own order (relevance, for a search). Any other valid `sort` stays accepted.
   */
  sortChoices?: readonly SortChoice[];
  /** The facets `facets=` may ask for: counted values the listing can be narrowed to. None when absent. */
  facets?: readonly FacetName[];
}

/** A labelled value of `sort`: "Title A\u2013Z" for `title`. */
export interface SortChoice {
  value: string;
  prompt: string;
}

/** A derived integer filter whose values are bounded multiples of a step (a decade: 1810 for 1810–1819). */
export interface IntegerSteps {
  type: 'integer';
  min: number;
  max: number;
  step: number;
}

/**
 * A filter by text, matched exactly as stored: an identifier (`format`) is first put in its stored form, as
 * a field of that format is (an ISBN-10 with hyphens finds the ISBN-13), any other text trimmed.
 */
export interface TextFilter {
  type: 'string';
  format?: FieldFormat;
  /** A shape the text must have, and the rule in words for the refusal (`an id, or any`). */
  pattern?: { test: RegExp; rule: string };
}

export interface SortKey {
  field: string;
  descending: boolean;
}

export interface Filter {
  field: string;
  /** Any of these values matches (a field filtered twice means "either"). */
  values: (string | number | boolean)[];
}

/** A validated listing request. */
export interface Listing {
  /** Present when `page` or `per_page` was given: the answer is a page envelope, not the bare array. */
  paging?: { page: number; perPage: number };
  sort: SortKey[];
  filters: Filter[];
  author?: string;
  query?: string;
  /** Item fields to return; absent means all. */
  fields?: string[];
  /** Facets to count over the whole listing (a page envelope's `facets`); absent means none. */
  facets?: FacetName[];
  /** From a paging link: where the page starts (keyset) and which page number it is. */
  cursor?: Cursor;
  /**
   * Up to this many matching items a filtered or searched total is counted exactly and an unsorted search
   * is ordered by relevance; beyond it the total is an estimate and the search is in id order (its exact
   * matches first, where the collection has `exactFirst`).
   */
  countLimit: number;
  /**
   * Items a `page=N` jump may skip by reading them (absent: any number). Deeper, a page is found from counters
   * where its order has them, else refused with a 400 that says how to reach it by cursor.
   */
  jumpLimit?: number;
}

/** The values of a facet's filter in the listing: the ones chosen. */
export function chosenValues(listing: Listing, name: FacetName): (string | number | boolean)[] {
  return listing.filters.find((filter) => filter.field === facetFilters[name])?.values ?? [];
}

/** A listing that asked for a page. */
export type PagedListing = Listing & { paging: NonNullable<Listing['paging']> };

/** Query parameters of a listing, one or more values each. */
export type QueryParams = Record<string, string[]>;

const SINGLE = ['page', 'per_page', 'cursor', 'sort', 'author', 'query', 'fields', 'facets'] as const;

export function parseListing(spec: ListingSpec, params: QueryParams, options: { countLimit?: number } = {}): Listing {
  const accepted = new Set<string>(['page', 'per_page', 'cursor', 'sort', 'filter', 'fields']);
  if (spec.search !== false) accepted.add('query');
  if (spec.author) accepted.add('author');
  if (spec.facets && spec.facets.length > 0) accepted.add('facets');
  for (const name of Object.keys(params)) {
    if (!accepted.has(name)) {
      throw new InvalidInput(`unknown query parameter "${name}"; accepted: ${[...accepted].join(', ')}`, {
        [name]: 'unknown parameter',
      });
    }
  }
  for (const name of SINGLE) {
    if ((params[name]?.length ?? 0) > 1) throw invalid(name, `"${name}" may be given only once`);
  }
  // PostgreSQL text cannot hold U+0000, so such a value could only fail in the database.
  for (const [name, values] of Object.entries(params)) {
    if (values.some((v) => v.includes('\u0000'))) throw invalid(name, 'must not contain the NUL character (%00)');
  }
  const one = (name: string) => params[name]?.[0];
  const listing: Listing = {
    sort: parseSort(spec, one('sort')),
    filters: parseFilters(spec, params.filter ?? []),
    countLimit: options.countLimit ?? EXACT_COUNT_LIMIT,
  };
  const page = one('page');
  const perPage = one('per_page');
  const cursor = one('cursor');
  const facets = one('facets');
  if (facets !== undefined) listing.facets = parseFacets(spec, facets);
  // A cursor names its page itself; with `page` as well, one of the two would be silently ignored.
  if (cursor !== undefined && page !== undefined) throw invalid('cursor', 'cannot be combined with "page"');
  // Facets are counted for a page envelope, so asking for them asks for one, as `page` does.
  if (page !== undefined || perPage !== undefined || cursor !== undefined || facets !== undefined) {
    listing.paging = {
      page: page === undefined ? 1 : parseWhole('page', page, 1, MAX_PAGE),
      perPage: perPage === undefined ? DEFAULT_PER_PAGE : parseWhole('per_page', perPage, 1, MAX_PER_PAGE),
    };
  }
  const author = one('author');
  if (author !== undefined) listing.author = parseText('author', author);
  const query = one('query');
  if (query !== undefined) listing.query = parseSearch(query);
  const fields = one('fields');
  if (fields !== undefined) listing.fields = parseFields(spec, fields);
  if (cursor !== undefined && listing.paging) {
    listing.cursor = decodeCursor(cursor, {
      fit: listingFit(listing),
      ranked: isRankable(listing),
      keyTypes: (ranked) => orderKeyTypes(spec, listing, ranked),
    });
    listing.paging.page = listing.cursor.page;
  }
  return listing;
}

/** Whether an unsorted search may be ordered by relevance (else its exact matches first, then id order). */
export function isRankable(listing: Listing): boolean {
  return listing.query !== undefined && listing.sort.length === 0;
}

/**
 * Whether the listing, when it is not ranked, orders the items its search names exactly first: the order
 * then begins with their tier, and so do its cursors' keys.
 */
export function listsExactFirst(spec: Pick<ListingSpec, 'exactFirst'>, listing: Listing): boolean {
  return spec.exactFirst === true && isRankable(listing);
}

/** The sort keys the listing is ordered by, ending with the id tie-break unless the sort names id. */
export function orderKeys(listing: Listing): SortKey[] {
  return listing.sort.some((key) => key.field === 'id')
    ? listing.sort
    : [...listing.sort, { field: 'id', descending: false }];
}

/** The fingerprint a cursor carries: everything that decides the order and the pages, nothing else. */
export function listingFit(listing: Listing): string {
  const { paging, fields: _fields, cursor: _cursor, facets: _facets, ...order } = listing;
  return fingerprint(JSON.stringify([listingQuery(order), paging?.perPage]));
}

/** A cursor for a paging link of this listing. */
export function cursorFor(listing: Listing, cursor: Omit<Cursor, 'fit'>): string {
  return encodeCursor({ ...cursor, fit: listingFit(listing) });
}

/**
 * The query parameters that reproduce a listing, at a page number or a cursor (for paging links); with
 * neither, as it was asked.
 */
export function listingQuery(listing: Listing, at?: number | { cursor: string }) {
  const paging = listing.paging && {
    ...(typeof at === 'object'
      ? { per_page: listing.paging.perPage, cursor: at.cursor }
      : listing.cursor && at === undefined
        ? { per_page: listing.paging.perPage, cursor: encodeCursor(listing.cursor) }
        : { page: at ?? listing.paging.page, per_page: listing.paging.perPage }),
  };
  return {
    ...(listing.query !== undefined && { query: listing.query }),
    ...(listing.author !== undefined && { author: listing.author }),
    ...(listing.filters.length > 0 && {
      filter: listing.filters.flatMap((f) => f.values.map((v) => `${f.field}:${v}`)),
    }),
    ...(listing.sort.length > 0 && {
      sort: listing.sort.map((k) => (k.descending ? `-${k.field}` : k.field)).join(','),
    }),
    ...paging,
    ...(listing.fields && { fields: listing.fields.join(',') }),
    ...(listing.facets && { facets: listing.facets.join(',') }),
  };
}

/** Page count for the envelope's meta: ceil(total / per_page). */
export function totalPages(totalItems: number, perPage: number): number {
  return Math.ceil(totalItems / perPage);
}

function orderKeyTypes(spec: ListingSpec, listing: Listing, ranked: boolean): KeyType[] {
  if (ranked) return ['rank', 'integer'];
  const types = orderKeys(listing).map(
    (key): KeyType => (sortType(spec, key.field) === 'integer' ? 'integer' : 'string'),
  );
  return listsExactFirst(spec, listing) ? ['tier', ...types] : types;
}

/** The fields a listing can be sorted by: its item fields, then its derived sortable properties. */
export function sortableFields(spec: ListingSpec): string[] {
  return [...Object.keys(spec.fields), ...Object.keys(spec.sorts ?? {})];
}

/** Own keys only, as for `isField`. */
function sortType(spec: ListingSpec, field: string) {
  if (isField(spec, field)) return spec.fields[field];
  return spec.sorts && Object.hasOwn(spec.sorts, field) ? spec.sorts[field] : undefined;
}

function parseSort(spec: ListingSpec, value: string | undefined): SortKey[] {
  if (value === undefined) return [];
  const keys = value.split(',').map((raw) => {
    const descending = raw.startsWith('-');
    const field = descending ? raw.slice(1) : raw;
    if (field === '') throw invalid('sort', 'has an empty sort key; use field or -field, separated by commas');
    if (!sortType(spec, field)) {
      throw invalid('sort', `cannot sort by "${field}"; sortable: ${sortableFields(spec).join(', ')}`);
    }
    return { field, descending };
  });
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key.field)) throw invalid('sort', `names "${key.field}" more than once`);
    seen.add(key.field);
  }
  return keys;
}

function parseFilters(spec: ListingSpec, values: string[]): Filter[] {
  const byField = new Map<string, Filter>();
  for (const raw of values) {
    const colon = raw.indexOf(':');
    if (colon <= 0) throw invalid('filter', `"${raw}" is not of the form field:value`);
    const field = raw.slice(0, colon);
    const text = raw.slice(colon + 1);
    const type = isField(spec, field) ? spec.fields[field] : filterOnly(spec, field);
    if (type === undefined) {
      throw invalid('filter', `cannot filter by "${field}"; filterable: ${filterableNames(spec)}`);
    }
    if (text === '') throw invalid('filter', `"${raw}" has an empty value`);
    if (text.length > MAX_QUERY_PARAM_LENGTH) {
      throw invalid('filter', `value is longer than ${MAX_QUERY_PARAM_LENGTH} characters`);
    }
    const value = filterValue(field, type, text.normalize('NFC'));
    const filter = byField.get(field) ?? { field, values: [] };
    filter.values.push(value);
    byField.set(field, filter);
  }
  return [...byField.values()];
}

function filterValue(
  field: string,
  type: 'string' | 'integer' | 'boolean' | readonly string[] | IntegerSteps | TextFilter,
  text: string,
) {
  if (type === 'integer') return parseInteger('filter', text, `${field} must be an integer`);
  if (typeof type === 'object' && 'type' in type && type.type === 'string') return filterText(field, type, text);
  if (typeof type === 'object' && 'step' in type) {
    const { min, max, step } = type;
    const problem = `${field} must be a multiple of ${step} from ${min} to ${max}`;
    const value = parseInteger('filter', text, problem);
    if (value < min || value > max || value % step !== 0) throw invalid('filter', problem);
    return value;
  }
  if (type === 'boolean') {
    if (text !== 'true' && text !== 'false') throw invalid('filter', `${field} must be true or false`);
    return text === 'true';
  }
  if (Array.isArray(type) && !type.includes(text))
    throw invalid('filter', `${field} must be one of: ${type.join(', ')}`);
  return text;
}

function filterText(field: string, filter: TextFilter, text: string): string {
  if (filter.format) {
    const { canonical, problem } = identifierFormats[filter.format];
    const stored = canonical(text);
    if (stored === undefined) throw invalid('filter', `${field} ${problem(text)}`);
    return stored;
  }
  const trimmed = text.trim();
  if (trimmed === '') throw invalid('filter', `${field} must not be blank`);
  if (filter.pattern && !filter.pattern.test.test(trimmed))
    throw invalid('filter', `${field} must be ${filter.pattern.rule}`);
  return trimmed;
}

function parseFields(spec: ListingSpec, value: string): string[] {
  const fields = value.split(',');
  const selectable = [...Object.keys(spec.fields), ...(spec.extraFields ?? [])];
  for (const field of fields) {
    if (field === '') throw invalid('fields', 'has an empty field name');
    if (!selectable.includes(field)) {
      throw invalid('fields', `unknown field "${field}"; available: ${selectable.join(', ')}`);
    }
  }
  return [...new Set(fields)];
}

/** The facets asked for, each offered by the listing and named once. */
function parseFacets(spec: ListingSpec, value: string): FacetName[] {
  const offered = spec.facets ?? [];
  const names = value.split(',');
  for (const name of names) {
    if (name === '') throw invalid('facets', 'has an empty facet name; use names separated by commas');
    if (!(offered as readonly string[]).includes(name)) {
      throw invalid('facets', `has no facet "${name}"; available: ${offered.join(', ')}`);
    }
  }
  if (new Set(names).size < names.length) throw invalid('facets', 'names a facet more than once');
  return names as FacetName[];
}

/** Free text, compared with stored text that was normalised to NFC on input: so is this. */
function parseText(name: string, value: string): string {
  if (value.trim() === '') throw invalid(name, 'must not be empty');
  if (value.length > MAX_QUERY_PARAM_LENGTH) {
    throw invalid(name, `must be at most ${MAX_QUERY_PARAM_LENGTH} characters`);
  }
  return value.normalize('NFC');
}

/** A search's cost grows with its words, all of which must match: a few carry all the meaning. */
export function parseSearch(value: string): string {
  const text = parseText('query', value);
  if (text.split(/\s+/).filter((word) => word !== '').length > MAX_SEARCH_WORDS) {
    throw invalid('query', `must have at most ${MAX_SEARCH_WORDS} words`);
  }
  return text;
}

function parseWhole(name: string, value: string, min: number, max: number): number {
  const number = parseInteger(name, value, `must be a whole number from ${min} to ${max}`);
  if (number < min || number > max) throw invalid(name, `must be a whole number from ${min} to ${max}`);
  return number;
}

/** Integers within PostgreSQL's `integer` range, so a value never overflows a query. */
function parseInteger(name: string, value: string, message: string): number {
  if (!/^-?\d{1,10}$/.test(value)) throw invalid(name, message);
  const number = Number(value);
  if (number < -INT4_MAX - 1 || number > INT4_MAX) throw invalid(name, message);
  return number;
}

/** Own keys only: `constructor` or `__proto__` are not fields. */
function isField(spec: ListingSpec, field: string): boolean {
  return Object.hasOwn(spec.fields, field);
}

/** Own keys only, as for `isField`. */
function filterOnly(spec: ListingSpec, field: string) {
  return spec.filters && Object.hasOwn(spec.filters, field) ? spec.filters[field] : undefined;
}

function filterableNames(spec: ListingSpec): string {
  return [...Object.keys(spec.fields), ...Object.keys(spec.filters ?? {})].join(', ');
}

function invalid(parameter: string, problem: string): InvalidInput {
  return new InvalidInput(`query parameter "${parameter}" ${problem}`, { [parameter]: problem });
}

/** What a page read tells the links and the meta beyond its items. */
export interface PageFacts {
  totalItems: number;
  estimated: boolean;
  /** The page number answered. */
  page: number;
  /** Ordered by relevance; the cursors carry it on so a walk keeps one order. */
  ranked: boolean;
  /** Order key values of the first and last item, from which `prev` and `next` cursors start. */
  edges?: { first: KeyValue[]; last: KeyValue[] };
  /** Items follow the last one. */
  more: boolean;
  /** The search with its misspelt words corrected, where the answer points to it ("did you mean"). */
  corrected?: Correction;
}

/** A listing's `query` and `author` as corrected: only those that had a misspelt word. */
export interface Correction {
  query?: string;
  author?: string;
}
