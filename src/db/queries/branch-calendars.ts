/**
 * @module A branch's calendar as the database holds it: the weekdays it opens, in the library's time zone,
 * from which due dates and fines are counted (`domain/calendar.ts`).
 */
import { eq } from 'drizzle-orm';
import { type BranchCalendar, branchCalendar } from '../../domain/calendar.js';
import type { Db } from '../client.js';
import { branches } from '../schema/index.js';

/** The calendar of a branch; `undefined` when there is no such branch. */
export async function findBranchCalendar(
  db: Db,
  params: { branchId: number; timeZone: string },
): Promise<BranchCalendar | undefined> {
  const [branch] = await db
    .select({ openWeekdays: branches.openWeekdays })
    .from(branches)
    .where(eq(branches.id, params.branchId));
  if (!branch) return undefined;
  return branchCalendar({ timeZone: params.timeZone, openWeekdays: branch.openWeekdays });
}
