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

/** `open` is waiting, in transit or ready: a book's queue as it stands at `at`. */
const byStatus =
  (at: Date) =>
  (status: string): SQL =>
    status === 'open'
      ? sql`(${holdStatus(at)}) in ('waiting', 'in_transit', 'ready')`
      : sql`(${holdStatus(at)}) = ${status}`;

/** The listing of holds as they stand at `at` (business time: a ready hold past its time reads expired). */
export const holdListing = (at: Date) =>
  listingTable(holdListingSpec, {
    from: holds,
    selection: holdColumns(at),
    columns: { id: holds.id, book_id: holds.bookId, borrower_id: holds.borrowerId },
    id: holds.id,
    search: { column: sql`''::tsvector`, config: 'simple' },
    filters: {
      status: (values) => anyOf(values, byStatus(at)),
    },
    sorts: { position: holdPositionOrder(at) },
  });

export async function findHold(db: Db, params: { id: number; at: Date }): Promise<Hold | undefined> {
  const [hold] = await db.select(holdColumns(params.at)).from(holds).where(eq(holds.id, params.id));
  return hold;
}

/** Whose holds a listing ranges over: one book's, or one user's. */
export type HoldScope = { bookId: number } | { borrowerId: number };

export function listHoldsPage(db: Db, listing: PagedListing, scope: HoldScope, at: Date) {
  return readPage<Hold>(db, holdListing(at), listing, scopeOf(scope));
}

export function streamHolds(database: Database, listing: Listing, scope: HoldScope, at: Date) {
  return readAll<Hold>(database, holdListing(at), listing, scopeOf(scope));
}

function scopeOf(scope: HoldScope): ListingScope {
  return { conditions: ['bookId' in scope ? eq(holds.bookId, scope.bookId) : eq(holds.borrowerId, scope.borrowerId)] };
}
