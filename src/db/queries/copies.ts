/** @module Reading copies, one or a book's listing. Adding and withdrawing are circulation steps. */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Copy } from '../../domain/copy.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { copyListingSpec } from '../../domain/listings.js';
import type { Database, Db } from '../client.js';
import { copies } from '../schema/index.js';
import { copyColumns } from './circulation-columns.js';
import { type ListingScope, listingTable, readAll, readPage } from './listing.js';
import { anyOf } from './sql.js';

const byStatus = (status: string): SQL => sql`(${copyColumns.status.getSQL()}) = ${status}`;

export const copyListing = listingTable(copyListingSpec, {
  from: copies,
  selection: copyColumns,
  columns: { id: copies.id },
  id: copies.id,
  search: { column: sql`''::tsvector`, config: 'simple' },
  filters: {
    status: (values) => anyOf(values, byStatus),
  },
});

export async function findCopy(db: Db, params: { id: number }): Promise<Copy | undefined> {
  const [copy] = await db.select(copyColumns).from(copies).where(eq(copies.id, params.id));
  return copy;
}

export function listCopiesPage(db: Db, listing: PagedListing, bookId: number) {
  return readPage<Copy>(db, copyListing, listing, scopeOf(bookId));
}

export function streamCopies(database: Database, listing: Listing, bookId: number) {
  return readAll<Copy>(database, copyListing, listing, scopeOf(bookId));
}

function scopeOf(bookId: number): ListingScope {
  return { conditions: [eq(copies.bookId, bookId)] };
}
