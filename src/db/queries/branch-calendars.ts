/**
 * @module A branch's calendar as the database holds it: the weekdays it opens and the dates it is closed
 * (`branch_closures`), in the library's time zone, from which due dates and fines are counted
 * (`domain/calendar.ts`).
 */
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type BranchCalendar, branchCalendar, type LocalDate } from '../../domain/calendar.js';
import type { Db } from '../client.js';
import { branchClosures, branches, copies } from '../schema/index.js';

export interface BranchCalendarParams {
  branchId: number;
  /** The library's IANA time zone. */
  timeZone: string;
  /** The closures read: those on or after `from` and on or before `to`, each when given (all otherwise). */
  from?: LocalDate | undefined;
  to?: LocalDate | undefined;
}

/**
 * The calendar of a branch, with its closed dates in the span asked for (a due date needs those from the
 * day of lending on; a fine those from the due date to the return); `undefined` when there is no such branch.
 * One statement.
 */
export async function findBranchCalendar(db: Db, params: BranchCalendarParams): Promise<BranchCalendar | undefined> {
  const within: SQL[] = [sql`"closed"."branch_id" = ${branches.id}`];
  if (params.from !== undefined) within.push(sql`"closed"."date" >= ${params.from}::date`);
  if (params.to !== undefined) within.push(sql`"closed"."date" <= ${params.to}::date`);
  const [branch] = await db
    .select({
      openWeekdays: branches.openWeekdays,
      closedDates: sql<string[]>`array(select to_char("closed"."date", 'YYYY-MM-DD') from ${branchClosures} as "closed"
        where ${sql.join(within, sql` and `)} order by "closed"."date")`,
    })
    .from(branches)
    .where(eq(branches.id, params.branchId));
  if (!branch) return undefined;
  return branchCalendar({
    timeZone: params.timeZone,
    openWeekdays: branch.openWeekdays,
    closedDates: branch.closedDates,
  });
}

/**
 * Takes the branch's row lock that orders due dates against closures: a borrow or a renewal (`share`) reads
 * the calendar after it, and adding a closure (`update`) moves loans due that day under it, so no loan can
 * fall due on a closure committed meanwhile. `false` when there is no such branch.
 */
export async function lockBranchCalendar(db: Db, branchId: number, mode: 'share' | 'update'): Promise<boolean> {
  const [row] = await db
    .select({ id: branches.id })
    .from(branches)
    .where(eq(branches.id, branchId))
    .for(mode === 'share' ? 'key share' : 'update');
  return row !== undefined;
}

/**
 * Takes, in id order, the share locks a borrow of the book may need: the branch named to lend at, and the
 * home branches of the book's copies (a member borrows at the copy's). Taken before the borrow writes
 * anything, so it never holds the change feed's lock while it waits for a closure being added.
 */
export async function lockLendingBranches(
  db: Db,
  params: { bookId: number; branchId?: number | undefined },
): Promise<void> {
  const homes = inArray(
    branches.id,
    db.select({ id: copies.branchId }).from(copies).where(eq(copies.bookId, params.bookId)),
  );
  await db
    .select({ id: branches.id })
    .from(branches)
    .where(params.branchId === undefined ? homes : or(eq(branches.id, params.branchId), homes))
    .orderBy(branches.id)
    .for('key share');
}

/** A branch's calendar as stored: its open weekdays and every date it is closed. */
export interface StoredBranchCalendar {
  id: number;
  openWeekdays: number[];
  closedDates: string[];
}

/** Every branch's calendar with all its closed dates: what a book read's due date is counted on (`LendingRulesCache`). */
export async function listBranchCalendars(db: Db): Promise<StoredBranchCalendar[]> {
  return db
    .select({
      id: branches.id,
      openWeekdays: branches.openWeekdays,
      closedDates: sql<string[]>`array(select to_char("closed"."date", 'YYYY-MM-DD') from ${branchClosures} as "closed"
        where "closed"."branch_id" = ${branches.id} order by "closed"."date")`,
    })
    .from(branches);
}
