/**
 * @module The WHERE of a listing: its scope, filters, `author=` (the authors it names, looked up once) and
 * `query` (its search planned once for every statement of one answer), and what the answer points to when a
 * search was corrected.
 */
import { and, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Correction, Listing } from '../../domain/listing.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { authorMatchOf, correctionOf, NAMED_AUTHORS_LISTED, namedAuthorsOf } from './listing-plan.js';
import { columnOf, type FilterValues, type ListingTable } from './listing-table.js';
import { planSearch, type SearchPlan } from './search.js';

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
export function withQuery(search: ListingSearch, query: SQL): ListingSearch {
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
  const found = namedAuthorsOf((row?.ids ?? []).map(Number));
  return 'many' in found ? { query: authorIds } : found;
}

/** Items by one of the named authors. */
function authorCondition(named: NonNullable<ListingTable['authorNamed']>, authors: NamedAuthors): SQL {
  if ('query' in authors) return sql`${named.column} in (${authors.query})`;
  if (authorMatchOf(authors) === 'none') return sql`false`;
  // One array, not a parameter per id: the planner sees its length, and hashes it to test walked rows.
  return sql`${named.column} = any(${sql.param(authors.ids)}::integer[])`;
}

/**
 * The listing's `query` and `author` with their misspelt words corrected, when the answer should point to
 * them (see `correctionOf`): where a search found nothing, only if its corrected text finds something.
 */
export async function correctedSearch(
  db: Db,
  table: ListingTable,
  listing: Listing,
  search: ListingSearch,
  total: number,
  scope: SQL[] = [],
): Promise<Correction | undefined> {
  const correction = correctionOf(search, total);
  if (correction.kind === 'none') return undefined;
  if (correction.kind === 'point') return correction.corrected;
  const where = await listingWhere(db, table, { ...listing, ...correction.corrected }, scope);
  const found = rowsOf(await db.execute(sql`select 1 from ${table.from} where ${where ?? sql`true`} limit 1`));
  return found.length > 0 ? correction.corrected : undefined;
}
