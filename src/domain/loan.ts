/** @module Loans: one lending of a copy of a book to a borrower, active until returned, then kept as history. */
import type { InputField } from './input.js';
import type { LendingDecision, LendingFacts } from './lending-rules.js';
import { INT4_MAX } from './limits.js';

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
  /** Where it was lent. */
  branch_id: number;
  /** Times it may be renewed, as the lending rules decided when it was made or last renewed. */
  renewals_allowed: number;
}

/**
 * What deciding about a renewal needs beyond the loan: whether anyone holds its book, and the facts the
 * lending rules decide it again from.
 */
export interface LoanRecord extends Loan {
  book_held: boolean;
  /** The borrower's patron category now. */
  patron_category_id: number;
  /** The copy's item type and home branch. */
  item_type_id: number;
  home_branch_id: number;
}

/** A loan with the lending rules' decision on renewing it now, when read for that. */
export type RenewableLoan = LoanRecord & { decision?: LendingDecision | undefined };

/** The facts the lending rules decide a loan's renewal from: the borrower, the copy and where it was lent. */
export function renewalFacts(loan: LoanRecord): LendingFacts {
  return {
    patron_category_id: loan.patron_category_id,
    item_type_id: loan.item_type_id,
    loan_branch_id: loan.branch_id,
    home_branch_id: loan.home_branch_id,
  };
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
  { name: 'branch_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Lent at branch' },
] as const satisfies readonly InputField[];

/** What `PATCH /loans/{id}` accepts: the only change a loan takes is its return. */
export const returnInputFields = [
  { name: 'status', type: 'string', required: true, enum: ['returned'], title: 'Status' },
  // Where it is handed in: the branch the loan was made at unless named.
  { name: 'branch_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Returned at branch' },
] as const satisfies readonly InputField[];
