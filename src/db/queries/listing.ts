/**
 * @module Turns a validated `Listing` into SQL for any collection: the WHERE of filters, `author` and
 * `query`, the ORDER BY of `sort` (ties broken by id) or of relevance, and the page or the whole stream.
 */
import { and, asc, count, desc, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Listing, PagedListing } from '../../domain/listing.js';
import type { Database, Db } from '../client.js';

/** How a collection's listing maps onto its table. */
export interface ListingTable {
  /** The table listed. */
  from: PgTable;
  /** What each item reads, named as the API names it (raw cursor rows then carry the same keys). */
  selection: SelectedFields;
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

/** One page of a listing, and how many items the whole listing has. */
export async function readPage<Row>(
  db: Db,
  table: ListingTable,
  listing: PagedListing,
  scope: SQL[] = [],
): Promise<{ rows: Row[]; totalItems: number }> {
  const where = listingWhere(table, listing, scope);
  const { page, perPage } = listing.paging;
  const [rows, [total]] = await Promise.all([
    db
      .select(table.selection)
      .from(table.from)
      .where(where)
      .orderBy(...listingOrder(table, listing))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(table.from).where(where),
  ]);
  return { rows: rows as Row[], totalItems: total?.n ?? 0 };
}

/** Every item of a listing, read in batches through a cursor. */
export async function* readAll<Row>(
  database: Database,
  table: ListingTable,
  listing: Listing,
  scope: SQL[] = [],
  batchSize = 500,
): AsyncGenerator<Row> {
  const query = database.db
    .select(table.selection)
    .from(table.from)
    .where(listingWhere(table, listing, scope))
    .orderBy(...listingOrder(table, listing));
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
  const config = sql.raw(`'${table.search.config}'::regconfig`);
  const prefix = table.search.config === 'simple' && !usesSearchSyntax(text) ? namePrefixes(text) : undefined;
  // Names are searched as typed: each word matches the start of a word ("tolk" finds Tolkien), which is
  // what a person picking an author or user from thousands expects. Phrases, `or` and `-word` keep the
  // web search syntax.
  return prefix === undefined ? sql`websearch_to_tsquery(${config}, ${text})` : sql`to_tsquery(${config}, ${prefix})`;
}

function usesSearchSyntax(text: string): boolean {
  return /["]|(^|\s)-\S|(^|\s)or(\s|$)/i.test(text);
}

/** `ursula le gu` → `ursula:* & le:* & gu:*`, keeping letters and digits only; undefined if none remain. */
function namePrefixes(text: string): string | undefined {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word !== '');
  return words.length === 0 ? undefined : words.map((word) => `${word}:*`).join(' & ');
}

/** The `author` parameter is a plain substring: LIKE's wildcards in it match themselves. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
