/** @module Reading holds: one, a book's queue, a user's. Placing and cancelling are circulation steps. */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Hold } from '../../domain/hold.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { holdListingSpec } from '../../domain/listings.js';
import type { Database, Db } from '../client.js';
import { holds } from '../schema/index.js';
import { holdColumns, holdPositionOrder, holdStatus } from './circulation-columns.js';
import { type ListingScope, listingTable, readAll, readPage } from './listing.js';
import { anyOf } from './sql.js';

/** `open` is waiting or ready: a book's queue as it stands. */
const byStatus = (status: string): SQL =>
  status === 'open' ? sql`(${holdStatus}) in ('waiting', 'ready')` : sql`(${holdStatus}) = ${status}`;

export const holdListing = listingTable(holdListingSpec, {
  from: holds,
  selection: holdColumns,
  columns: { id: holds.id, book_id: holds.bookId, borrower_id: holds.borrowerId },
  id: holds.id,
  search: { column: sql`''::tsvector`, config: 'simple' },
  filters: {
    status: (values) => anyOf(values, byStatus),
  },
  sorts: { position: holdPositionOrder },
});

export async function findHold(db: Db, params: { id: number }): Promise<Hold | undefined> {
  const [hold] = await db.select(holdColumns).from(holds).where(eq(holds.id, params.id));
  return hold;
}

/** Whose holds a listing ranges over: one book's, or one user's. */
export type HoldScope = { bookId: number } | { borrowerId: number };

export function listHoldsPage(db: Db, listing: PagedListing, scope: HoldScope) {
  return readPage<Hold>(db, holdListing, listing, scopeOf(scope));
}

export function streamHolds(database: Database, listing: Listing, scope: HoldScope) {
  return readAll<Hold>(database, holdListing, listing, scopeOf(scope));
}

function scopeOf(scope: HoldScope): ListingScope {
  return { conditions: ['bookId' in scope ? eq(holds.bookId, scope.bookId) : eq(holds.borrowerId, scope.borrowerId)] };
}
