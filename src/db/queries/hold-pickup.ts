/** @module Moving a waiting hold's pickup to another branch: a circulation step of its own. */
import { and, eq } from 'drizzle-orm';
import type { Hold } from '../../domain/hold.js';
import type { Db } from '../client.js';
import { holds } from '../schema/index.js';
import { lockBook, rejectedBranch } from './circulation.js';
import { holdColumns } from './circulation-columns.js';

/**
 * Sets the hold's pickup branch while it still waits; `undefined` when it does not (no longer) or does not
 * exist. Under the book's lock, as every circulation step: settling, which sends the first waiting hold a
 * copy by its pickup branch, reads the branch either before the change or after it, never between. 422
 * naming `pickup_branch_id` when the branch does not exist (the foreign key).
 */
export async function changeHoldPickup(
  db: Db,
  params: { id: number; pickupBranchId: number; at: Date },
): Promise<Hold | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const [found] = await tx.select({ bookId: holds.bookId }).from(holds).where(eq(holds.id, params.id));
      if (!found || !(await lockBook(tx, found.bookId))) return undefined;
      const [changed] = await tx
        .update(holds)
        .set({ pickupBranchId: params.pickupBranchId })
        .where(and(eq(holds.id, params.id), eq(holds.status, 'waiting')))
        .returning({ id: holds.id });
      if (!changed) return undefined;
      const [hold] = await tx.select(holdColumns(params.at)).from(holds).where(eq(holds.id, params.id));
      return hold as Hold;
    });
  } catch (error) {
    return rejectedBranch('pickup_branch_id', 'holds_pickup_branch_id_branches_id_fk')(error);
  }
}
