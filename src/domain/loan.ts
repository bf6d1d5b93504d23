/** @module Loans: one lending of a copy of a book to a borrower, active until returned, then kept as history. */
import type { InputField } from './input.js';

/** `overdue` is an active loan past its due date; the `status` filter's `active` includes it. */
export type LoanStatus = 'active' | 'overdue' | 'returned';

export interface Loan {
  id: number;
  book_id: number;
  copy_id: number;
  borrower_id: number;
  /** Timestamps are ISO 8601 strings in UTC. */
  borrowed_at: string;
  due_at: string;
  returned_at: string | null;
  /** Times renewed so far. */
  renewals: number;
}

/** What deciding about a renewal needs beyond the loan: whether anyone holds its book. */
export interface LoanRecord extends Loan {
  book_held: boolean;
}

/** A loan's status at the instant `at` (business time: the app's clock, `policy.loanStatus`). */
export function loanStatus(loan: Pick<Loan, 'returned_at' | 'due_at'>, at: Date): LoanStatus {
  if (loan.returned_at !== null) return 'returned';
  return Date.parse(loan.due_at) <= at.getTime() ? 'overdue' : 'active';
}

/**
 * What `POST /books/{id}/borrow` accepts: a librarian may lend on a borrower's behalf, and name the copy
 * (any copy on the shelf otherwise).
 */
export const borrowInputFields = [
  { name: 'borrower_id', type: 'integer', required: false, min: 1, title: 'Borrower' },
  { name: 'copy_id', type: 'integer', required: false, min: 1, title: 'Copy' },
] as const satisfies readonly InputField[];

/** What `PATCH /loans/{id}` accepts: the only change a loan takes is its return. */
export const returnInputFields = [
  { name: 'status', type: 'string', required: true, enum: ['returned'], title: 'Status' },
] as const satisfies readonly InputField[];
