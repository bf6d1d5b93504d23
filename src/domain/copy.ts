/** @module Copies: the lendable items of a book, each with an optional barcode unique in the library. */
import type { InputField } from './input.js';
import { BARCODE_MAX_LENGTH, INT4_MAX } from './limits.js';

/**
 * Where a copy is: on the shelf for anyone, lent, on its way to another branch, set aside for a ready hold,
 * or withdrawn from the collection (kept: its loans refer to it).
 */
export type CopyStatus = 'available' | 'on_loan' | 'in_transit' | 'on_hold' | 'withdrawn';

export interface Copy {
  id: number;
  book_id: number;
  barcode: string | null;
  /** ISO 8601, UTC. */
  added_at: string;
  withdrawn_at: string | null;
  status: CopyStatus;
  /** While lent: when it is due back. Never who has it. */
  due_at: string | null;
  /** Its home branch, where it is shelved. */
  branch_id: number;
  /** Where it is now (while in transit, where it was sent from). */
  location_branch_id: number;
  /** While in transit, where it is going; null otherwise. */
  transit_to_branch_id: number | null;
  /** What kind of item it is, for the lending rules. */
  item_type_id: number;
}

/** What a person picks a copy by: its barcode, or its number when it has none. */
export function copyLabel(copy: Pick<Copy, 'id' | 'barcode'>): string {
  return copy.barcode ?? `Copy ${copy.id}`;
}

/** Where a copy belongs and what kind it is: the default branch and item type unless named. */
export const copyPlaceInputFields = [
  { name: 'branch_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Home branch' },
  { name: 'item_type_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Item type' },
] as const satisfies readonly InputField[];

/** What `POST /books/{id}/copies` accepts. */
export const copyInputFields = [
  { name: 'barcode', type: 'string', required: false, maxLength: BARCODE_MAX_LENGTH, title: 'Barcode' },
  ...copyPlaceInputFields,
] as const satisfies readonly InputField[];

/** Whether the copy is on its way to a branch: then, and only then, a librarian there receives it. */
export function copyInTransit(copy: Pick<Copy, 'transit_to_branch_id' | 'status'>): boolean {
  return copy.status === 'in_transit' && copy.transit_to_branch_id !== null;
}

/** What `PATCH /copies/{id}` accepts: withdrawing it. Its branch and item type change with `PUT`. */
export const withdrawInputFields = [
  { name: 'status', type: 'string', required: true, enum: ['withdrawn'], title: 'Status' },
] as const satisfies readonly InputField[];
