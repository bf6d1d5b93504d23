/**
 * @module Holds: a user's place in the queue for a book none of whose copies is on the shelf. A hold
 * `waiting` has a position (1 is next); `in_transit` has a copy on its way to its pickup branch; `ready` has a
 * copy set aside for its borrower there until `ready_until`; it ends `fulfilled` (borrowed), `cancelled` or
 * `expired`.
 */
import type { InputField } from './input.js';
import { INT4_MAX } from './limits.js';

export type HoldStatus = 'waiting' | 'in_transit' | 'ready' | 'fulfilled' | 'cancelled' | 'expired';

export interface Hold {
  id: number;
  book_id: number;
  borrower_id: number;
  /** ISO 8601, UTC. */
  placed_at: string;
  status: HoldStatus;
  /** Where the borrower collects the copy. */
  pickup_branch_id: number;
  /** Place in the queue while waiting (1: next to get a copy); null otherwise. */
  position: number | null;
  /** The copy given to it: on its way (`in_transit`) or set aside (`ready`). */
  copy_id: number | null;
  ready_until: string | null;
  ended_at: string | null;
  loan_id: number | null;
}

/**
 * Where a hold is collected: the branch its request names, else the borrower's home branch. The rules
 * decide a hold there (its loan happens there), so the `hold` control, decided for a request naming none,
 * and the request itself, decided for the branch it names, ask this one function, and the hold is placed
 * at the branch it was decided for.
 */
export function pickupBranchOf(borrower: { homeBranchId: number }, named?: number | undefined): number {
  return named ?? borrower.homeBranchId;
}

export function holdIsOpen(hold: Pick<Hold, 'status'>): boolean {
  return hold.status === 'waiting' || hold.status === 'in_transit' || hold.status === 'ready';
}

/** What `POST /books/{id}/holds` accepts: where to collect the copy (the borrower's home branch unless named). */
export const holdInputFields = [
  { name: 'pickup_branch_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Pickup branch' },
] as const satisfies readonly InputField[];

/** What `PATCH /holds/{id}` accepts: a hold's one change is its cancellation. */
export const cancelInputFields = [
  { name: 'status', type: 'string', required: true, enum: ['cancelled'], title: 'Status' },
] as const satisfies readonly InputField[];

/** What `PUT /holds/{id}/pickup-branch` accepts: the branch where a waiting hold's copy will be collected. */
export const pickupInputFields = [
  { name: 'pickup_branch_id', type: 'integer', required: true, min: 1, max: INT4_MAX, title: 'Pickup branch' },
] as const satisfies readonly InputField[];
