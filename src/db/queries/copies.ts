/**
 * @module Reading copies, one or a book's listing, and changing where one belongs and what kind it is.
 * Adding and withdrawing are circulation steps.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Copy } from '../../domain/copy.js';
import { UnprocessableEntity } from '../../domain/errors.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { copyListingSpec } from '../../domain/listings.js';
import type { Database, Db } from '../client.js';
import { copies, holds } from '../schema/index.js';
import { copyColumns } from './circulation-columns.js';
import { type ListingScope, listingTable, readAll, readPage } from './listing.js';
import { anyOf } from './sql.js';
import { rejectedWrite } from './writes.js';

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

/** A copy's home branch and item type, as a write names them (the defaults where it does not). */
export interface CopyPlace {
  branchId?: number | undefined;
  itemTypeId?: number | undefined;
}

/** The columns of a copy's place that a write names. */
export function placeOf(place: CopyPlace) {
  return {
    ...(place.branchId !== undefined && { branchId: place.branchId }),
    ...(place.itemTypeId !== undefined && { itemTypeId: place.itemTypeId }),
  };
}

/**
 * Gives a copy another home branch or item type; `undefined` when there is no such copy. A copy at its home,
 * not in transit and not given to a hold, is moved with it (where it is follows where it belongs); any other
 * stays where it is, and goes to its new home when it next comes back to the shelf.
 */
export async function updateCopyPlace(db: Db, params: { id: number } & CopyPlace): Promise<Copy | undefined> {
  const [changed] = await db
    .update(copies)
    .set({
      ...placeOf(params),
      ...(params.branchId !== undefined && { locationBranchId: followsHome(params.branchId) }),
    })
    .where(eq(copies.id, params.id))
    .returning({ id: copies.id })
    .catch(rejectedPlace);
  return changed && findCopy(db, { id: params.id });
}

/** The copy's place after its home moves to `branchId` (the row read as it was before the update). */
function followsHome(branchId: number): SQL {
  return sql`case when ${copies.locationBranchId} = ${copies.branchId} and ${copies.transitToBranchId} is null
    and not exists (select 1 from ${holds} as "given" where "given"."copy_id" = ${copies}."id" and "given"."status" in ('in_transit', 'ready'))
    then ${branchId}::integer else ${copies.locationBranchId} end`;
}

/** A branch or item type named that does not exist, by its field. */
const unknown = (field: string, list: string) => () =>
  new UnprocessableEntity(`${field} names no ${list}`, { [field]: `names no ${list}` });

export const rejectedPlace = rejectedWrite('copy', {
  copies_branch_id_branches_id_fk: unknown('branch_id', 'branch'),
  copies_location_branch_id_branches_id_fk: unknown('branch_id', 'branch'),
  copies_item_type_id_item_types_id_fk: unknown('item_type_id', 'item type'),
});
