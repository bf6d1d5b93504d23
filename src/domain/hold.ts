/**
 * @module Holds: a user's place in the queue for a book none of whose copies is on the shelf. A hold
 * `waiting` has a position (1 is next); `ready` has a copy set aside for its borrower until `ready_until`;
 * it ends `fulfilled` (borrowed), `cancelled` or `expired`.
 */
import type { InputField } from './input.js';

export type HoldStatus = 'waiting' | 'ready' | 'fulfilled' | 'cancelled' | 'expired';

export interface Hold {
  id: number;
  book_id: number;
  borrower_id: number;
  /** ISO 8601, UTC. */
  placed_at: string;
  status: HoldStatus;
  /** Place in the queue while waiting (1: next to get a copy); null otherwise. */
  position: number | null;
  /** The copy set aside, once ready. */
  copy_id: number | null;
  ready_until: string | null;
  ended_at: string | null;
  loan_id: number | null;
}

export function holdIsOpen(hold: Pick<Hold, 'status'>): boolean {
  return hold.status === 'waiting' || hold.status === 'ready';
}

/** What `PATCH /holds/{id}` accepts: a hold's one change is its cancellation. */
export const cancelInputFields = [
  { name: 'status', type: 'string', required: true, enum: ['cancelled'], title: 'Status' },
] as const satisfies readonly InputField[];
