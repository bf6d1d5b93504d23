/** @module Copies: the lendable items of a book, each with an optional barcode unique in the library. */
import type { InputField } from './input.js';
import { BARCODE_MAX_LENGTH } from './limits.js';

/**
 * Where a copy is: on the shelf for anyone, lent, set aside for a ready hold, or withdrawn from the
 * collection (kept: its loans refer to it).
 */
export type CopyStatus = 'available' | 'on_loan' | 'on_hold' | 'withdrawn';

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
}

/** What a person picks a copy by: its barcode, or its number when it has none. */
export function copyLabel(copy: Pick<Copy, 'id' | 'barcode'>): string {
  return copy.barcode ?? `Copy ${copy.id}`;
}

/** What `POST /books/{id}/copies` accepts. */
export const copyInputFields = [
  { name: 'barcode', type: 'string', required: false, maxLength: BARCODE_MAX_LENGTH, title: 'Barcode' },
] as const satisfies readonly InputField[];

/** What `PATCH /copies/{id}` accepts: a copy's one change is its withdrawal. */
export const withdrawInputFields = [
  { name: 'status', type: 'string', required: true, enum: ['withdrawn'], title: 'Status' },
] as const satisfies readonly InputField[];
