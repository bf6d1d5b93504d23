/**
 * @module Checking in a scanned copy at a branch, the one decision the desk's `POST /desk/checkins` and SIP2's
 * checkin (09) both make: a copy on loan is returned; a copy lent to nobody but in transit comes off the van,
 * received at its destination or sent on from anywhere else (`checkInTransit`); any other copy has nothing
 * to check in. The policy's predicates decide who may, and the circulation transactions decide again under
 * the book's lock.
 */
import { type CheckedIn, nothingToCheckIn, type ScannedCopy } from '../../domain/desk.js';
import { Conflict } from '../../domain/errors.js';
import { authorize, type Policy, type SignedIn } from '../../domain/policy.js';
import { loanAlreadyReturned } from '../../domain/refusals.js';
import type { Db } from '../client.js';
import { checkInTransit, returnCopy } from './circulation.js';
import { findActiveLoanOfCopy } from './desk.js';

export interface CheckInParams {
  copy: ScannedCopy;
  /** The branch the copy is scanned at. */
  branchId: number;
  at: Date;
  timeZone: string;
}

/** Checks the copy in at the branch, as the caller (a librarian, or a terminal acting as one) may. */
export async function checkInCopy(
  db: Db,
  policy: Policy,
  caller: SignedIn,
  { copy, branchId, at, timeZone }: CheckInParams,
): Promise<CheckedIn> {
  const { holdDays } = policy.rules;
  const loan = await findActiveLoanOfCopy(db, { copyId: copy.id });
  if (!loan) {
    if (copy.transit_to_branch_id === null) throw nothingToCheckIn(copy);
    authorize(policy.receiveCopy(caller, { ...copy, status: 'in_transit' }));
    const done = await checkInTransit(db, { id: copy.id, branchId, holdDays, at });
    if (!done) throw new Conflict(`copy ${copy.id} (barcode ${copy.barcode}) is no longer in transit; scan it again`);
    return done;
  }
  authorize(policy.returnLoan(caller, loan));
  // Conditional on the loan still being active: of two check-ins racing, the second is refused.
  const returned = await returnCopy(db, { id: loan.id, branchId, holdDays, at, timeZone, currency: policy.currency });
  if (!returned) throw loanAlreadyReturned(loan.id);
  return { action: 'returned', returned };
}
