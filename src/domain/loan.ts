/** @module Loans: one lending of a book to a borrower, active until returned, then kept as history. */
import type { InputField } from './input.js';

export type LoanStatus = 'active' | 'returned';

export interface Loan {
  id: number;
  book_id: number;
  borrower_id: number;
  /** Timestamps are ISO 8601 strings in UTC. */
  borrowed_at: string;
  due_at: string;
  returned_at: string | null;
}

export function loanStatus(loan: Pick<Loan, 'returned_at'>): LoanStatus {
  return loan.returned_at === null ? 'active' : 'returned';
}

/** What `POST /books/{id}/borrow` accepts: a librarian may lend on a borrower's behalf. */
export type BorrowInput = { borrower_id?: number };

export const borrowInputFields: readonly InputField[] = [
  { name: 'borrower_id', type: 'integer', required: false, min: 1, title: 'Borrower' },
];

/** What `PATCH /loans/{id}` accepts: the only change a loan takes is its return. */
export type LoanChange = { status: 'returned' };

export const returnInputFields: readonly InputField[] = [
  { name: 'status', type: 'string', required: true, enum: ['returned'], title: 'Status' },
];
