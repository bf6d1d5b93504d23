/**
 * @module Turns a validated `Listing` into SQL for any collection: the WHERE of filters, `author` and
 * `query`, the ORDER BY of `sort` (ties broken by id) or of relevance, and the page or the whole stream.
 */
import { and, asc, desc, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Listing } from '../../domain/listing.js';
import type { Database } from '../client.js';

/** How a collection's listing maps onto its table. */
export interface ListingTable {
  /** Item field name → column. */
  columns: Record<string, PgColumn>;
  id: PgColumn;
  /** The tsvector column and the text search configuration it was built with. */
  search: { column: PgColumn | SQL; config: 'english' | 'simple' };
  /** Conditions for fields that are not plain columns (e.g. a loan's `status`), by field name. */
  derived?: Record<string, (values: (string | number | boolean)[]) => SQL>;
  /** Condition for the `author` parameter, given a LIKE pattern; absent where it does not apply. */
  authorNameLike?: (pattern: string) => SQL;
}

/** The WHERE of a listing, within a scope (e.g. one author's books). */
export function listingWhere(table: ListingTable, listing: Listing, scope: SQL[] = []): SQL | undefined {
  const conditions = [...scope];
  for (const filter of listing.filters) {
    const derived = table.derived?.[filter.field];
    conditions.push(derived ? derived(filter.values) : inArray(columnOf(table, filter.field), filter.values));
  }
  if (listing.author !== undefined && table.authorNameLike) {
    conditions.push(table.authorNameLike(`%${escapeLike(listing.author)}%`));
  }
  if (listing.query !== undefined) {
    conditions.push(sql`${table.search.column} @@ ${tsQuery(table, listing.query)}`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The ORDER BY: the sort keys then id; without sort, relevance for a search, else id. */
export function listingOrder(table: ListingTable, listing: Listing): SQL[] {
  const keys = listing.sort.map((key) => (key.descending ? desc : asc)(columnOf(table, key.field)));
  if (listing.sort.length === 0 && listing.query !== undefined) {
    keys.push(sql`ts_rank(${table.search.column}, ${tsQuery(table, listing.query)}) desc`);
  }
  if (!listing.sort.some((key) => key.field === 'id')) keys.push(asc(table.id));
  return keys;
}

/** One page of a listing's rows. */
export function pageOf<Q extends PgSelect>(query: Q, page: { page: number; perPage: number }) {
  return query.limit(page.perPage).offset((page.page - 1) * page.perPage);
}

/** Every row of the listing, read in batches through a cursor. */
export async function* selectAll<Row>(database: Database, query: PgSelect, batchSize = 500): AsyncGenerator<Row> {
  for await (const batch of database.batches(query.toSQL(), batchSize)) {
    yield* batch as Row[];
  }
}

function columnOf(table: ListingTable, field: string): PgColumn {
  const column = table.columns[field];
  if (!column) throw new Error(`no column for listing field ${field}`);
  return column;
}

function tsQuery(table: ListingTable, text: string): SQL {
  return sql`websearch_to_tsquery(${sql.raw(`'${table.search.config}'`)}::regconfig, ${text})`;
}

/** The `author` parameter is a plain substring: LIKE's wildcards in it match themselves. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
