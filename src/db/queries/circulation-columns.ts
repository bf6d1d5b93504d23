/**
 * @module The columns of copies, holds and loans as the API names them, with the states derived from
 * circulation (a copy's status, a hold's position) computed by the database in the same read.
 */
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { CopyStatus } from '../../domain/copy.js';
import type { HoldStatus } from '../../domain/hold.js';
import { INT4_MAX } from '../../domain/limits.js';
import { copies, holds, loans } from '../schema/index.js';
import { businessTime, isoTimestamp } from './sql.js';

const nullableTimestamp = (column: PgColumn) =>
  sql<string | null>`case when ${column} is null then null else ${isoTimestamp(column)} end`;

export const loanColumns = {
  id: loans.id,
  book_id: loans.bookId,
  copy_id: loans.copyId,
  borrower_id: loans.borrowerId,
  borrowed_at: isoTimestamp(loans.borrowedAt).as('borrowed_at'),
  due_at: isoTimestamp(loans.dueAt).as('due_at'),
  returned_at: nullableTimestamp(loans.returnedAt).as('returned_at'),
  renewals: loans.renewals,
  branch_id: loans.branchId,
  renewals_allowed: loans.renewalsAllowed,
};

/** An open hold on the outer loan's book: then the loan cannot be renewed. */
export const loanBookHeld = sql<boolean>`exists (select 1 from ${holds} as "waiting_for" where "waiting_for"."book_id" = ${loans}."book_id" and "waiting_for"."status" in ('waiting', 'in_transit', 'ready'))`;

/** The active loan of the outer copy. */
const copyLoan = sql`from ${loans} as "lent" where "lent"."copy_id" = ${copies}."id" and "lent"."returned_at" is null`;

export const copyColumns = {
  id: copies.id,
  book_id: copies.bookId,
  barcode: copies.barcode,
  added_at: isoTimestamp(copies.addedAt).as('added_at'),
  withdrawn_at: nullableTimestamp(copies.withdrawnAt).as('withdrawn_at'),
  status: sql<CopyStatus>`case
    when ${copies.withdrawnAt} is not null then 'withdrawn'
    when exists (select 1 ${copyLoan}) then 'on_loan'
    when ${copies.transitToBranchId} is not null then 'in_transit'
    when exists (select 1 from ${holds} as "set_aside" where "set_aside"."copy_id" = ${copies}."id" and "set_aside"."status" = 'ready') then 'on_hold'
    else 'available' end`.as('status'),
  due_at: sql<string | null>`(select ${isoTimestamp(sql`"lent"."due_at"`)} ${copyLoan})`.as('due_at'),
  branch_id: copies.branchId,
  location_branch_id: copies.locationBranchId,
  transit_to_branch_id: copies.transitToBranchId,
  item_type_id: copies.itemTypeId,
};

/**
 * A hold's status at `at`: a ready hold whose time ran out is expired, whether or not a sweep has stamped it
 * yet (the next circulation step on its book, or the sweep, passes its copy on).
 */
export const holdStatus = (at: Date) =>
  sql<HoldStatus>`case when ${holds.status} = 'ready' and ${holds.readyUntil} <= ${businessTime(at)} then 'expired' else ${holds.status} end`;

/** Place in the book's queue of a waiting hold, first come first served: waiting holds before it, and it. */
const holdPosition = sql<
  number | null
>`case when ${holds.status} = 'waiting' then (select count(*)::int from ${holds} as "ahead" where "ahead"."book_id" = ${holds}."book_id" and "ahead"."status" = 'waiting' and ("ahead"."placed_at", "ahead"."id") <= (${holds}."placed_at", ${holds}."id")) end`;

/**
 * What `sort=position` orders by, never null for the paging cursors: a ready or in-transit hold, served
 * already, is ahead of position 1; a hold that has ended has no place and comes after every position.
 */
export const holdPositionOrder = (at: Date) =>
  sql<number>`coalesce(${holdPosition}, case when (${holdStatus(at)}) in ('ready', 'in_transit') then 0 else ${INT4_MAX}::int end)`;

/** A hold's columns as read at `at` (its status and `ended_at` depend on it). */
export const holdColumns = (at: Date) => ({
  id: holds.id,
  book_id: holds.bookId,
  borrower_id: holds.borrowerId,
  placed_at: isoTimestamp(holds.placedAt).as('placed_at'),
  status: holdStatus(at).as('status'),
  pickup_branch_id: holds.pickupBranchId,
  position: holdPosition.as('position'),
  copy_id: sql<number | null>`case when ${holds.status} in ('in_transit', 'ready') then ${holds.copyId} end`.as(
    'copy_id',
  ),
  ready_until: sql<string | null>`case when ${holds.status} = 'ready' then ${isoTimestamp(holds.readyUntil)} end`.as(
    'ready_until',
  ),
  ended_at: sql<string | null>`case
    when ${holds.endedAt} is not null then ${isoTimestamp(holds.endedAt)}
    when ${holds.status} = 'ready' and ${holds.readyUntil} <= ${businessTime(at)} then ${isoTimestamp(holds.readyUntil)} end`.as(
    'ended_at',
  ),
  loan_id: holds.loanId,
});
