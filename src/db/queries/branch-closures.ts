/**
 * @module A branch's closures: listing them, adding one (which moves the loans due that day to the branch's
 * next open day, in the same transaction), deleting one (which moves nothing back).
 */
import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { AddedClosure, BranchClosure } from '../../domain/branch-closures.js';
import { nextOpenDay } from '../../domain/calendar.js';
import { Conflict, NotFound } from '../../domain/errors.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { closureListingSpec } from '../../domain/listings.js';
import { dateOfDay, dayOf, endOfLocalDay, type LocalDate, startOfLocalDay } from '../../domain/local-dates.js';
import type { Database, Db } from '../client.js';
import { branchClosures, loans } from '../schema/index.js';
import { findBranchCalendar, lockBranchCalendar } from './branch-calendars.js';
import { type ListingScope, listingTable, readAll, readPage } from './listing.js';
import { isoTimestamp } from './sql.js';
import { rejectedWrite } from './writes.js';

const closureColumns = {
  id: branchClosures.id,
  branch_id: branchClosures.branchId,
  date: sql<string>`to_char(${branchClosures.date}, 'YYYY-MM-DD')`.as('date'),
  reason: branchClosures.reason,
  created_at: isoTimestamp(branchClosures.createdAt).as('created_at'),
};

export const closureListing = listingTable(closureListingSpec, {
  from: branchClosures,
  selection: closureColumns,
  columns: { id: branchClosures.id, date: branchClosures.date },
  id: branchClosures.id,
  search: { column: sql`''::tsvector`, config: 'simple' },
});

function scopeOf(branchId: number): ListingScope {
  return { conditions: [eq(branchClosures.branchId, branchId)] };
}

export function listClosuresPage(db: Db, listing: PagedListing, branchId: number) {
  return readPage<BranchClosure>(db, closureListing, listing, scopeOf(branchId));
}

export function streamClosures(database: Database, listing: Listing, branchId: number) {
  return readAll<BranchClosure>(database, closureListing, listing, scopeOf(branchId));
}

export async function findClosure(
  db: Db,
  params: { branchId: number; id: number },
): Promise<BranchClosure | undefined> {
  const [closure] = await db
    .select(closureColumns)
    .from(branchClosures)
    .where(and(eq(branchClosures.branchId, params.branchId), eq(branchClosures.id, params.id)));
  return closure;
}

export interface AddClosureParams {
  branchId: number;
  /** Today or later (checked by the caller: `closureDate`). */
  date: LocalDate;
  reason?: string | undefined;
  /** The library's time zone, in which the date begins and ends. */
  timeZone: string;
}

/**
 * Closes a branch on a date, in one transaction under the branch's row lock (`lockBranchCalendar`): a
 * borrow or renewal that read the calendar before it has committed its loan, which this moves; one after
 * it reads the closure. Every active loan of the branch due that local day is moved to the end of the
 * branch's next open day by one UPDATE; the answer counts them. 404 for no such branch, 409 for a date
 * already closed.
 *
 * The closure is inserted last: its change-feed event takes the feed's lock, held to commit, which a
 * transaction returning a loan this moves may be waiting for while it holds that loan's row.
 */
export async function addClosure(db: Db, params: AddClosureParams): Promise<AddedClosure> {
  const { branchId, date, timeZone } = params;
  return db
    .transaction(async (tx) => {
      if (!(await lockBranchCalendar(tx, branchId, 'update'))) throw new NotFound(`branch ${branchId} not found`);
      const [taken] = await tx
        .select({ id: branchClosures.id })
        .from(branchClosures)
        .where(and(eq(branchClosures.branchId, branchId), eq(branchClosures.date, date)));
      if (taken) throw alreadyClosed(branchId, date);
      // The next open day after the date: the closures that follow it count, the new one is before it.
      const calendar = await findBranchCalendar(tx, { branchId, timeZone, from: date });
      const day = dayOf(date);
      const reopens = dayOf(nextOpenDay(calendar as NonNullable<typeof calendar>, dateOfDay(day + 1)));
      const moved = await tx
        .update(loans)
        .set({ dueAt: new Date(endOfLocalDay(reopens, timeZone)) })
        .where(
          and(
            eq(loans.branchId, branchId),
            isNull(loans.returnedAt),
            gte(loans.dueAt, new Date(startOfLocalDay(day, timeZone))),
            lt(loans.dueAt, new Date(startOfLocalDay(day + 1, timeZone))),
          ),
        )
        .returning({ id: loans.id });
      const [inserted] = await tx
        .insert(branchClosures)
        .values({ branchId, date, reason: params.reason ?? null })
        .returning({ id: branchClosures.id });
      const closure = (await findClosure(tx, { branchId, id: (inserted as { id: number }).id })) as BranchClosure;
      return { ...closure, moved_loans: moved.length };
    })
    .catch(rejectedWrite('closure', { branch_closures_branch_id_date_idx: () => alreadyClosed(branchId, date) }));
}

/** A date closed already (read first, or by the unique index when two requests race). */
function alreadyClosed(branchId: number, date: LocalDate): Conflict {
  return new Conflict(`branch ${branchId} is already closed on ${date}: a date is closed once`);
}

/** Deletes a closure; loans moved off it when it was added stay where they were moved. */
export async function deleteClosure(db: Db, params: { branchId: number; id: number }): Promise<boolean> {
  const deleted = await db
    .delete(branchClosures)
    .where(and(eq(branchClosures.branchId, params.branchId), eq(branchClosures.id, params.id)))
    .returning({ id: branchClosures.id });
  return deleted.length > 0;
}
