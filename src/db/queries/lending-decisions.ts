/**
 * @module The lending rules' decisions for a book as a borrower reads it: which copy a borrow would lend,
 * the candidate rules for it, decided by the domain (`domain/lending-rules.ts`). The lending transaction
 * decides again under the borrower's lock; these answer the controls and the requests' first checks.
 */
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type BranchCalendar, dueDateFor } from '../../domain/calendar.js';
import { UnprocessableEntity } from '../../domain/errors.js';
import { pickupBranchOf } from '../../domain/hold.js';
import {
  countLoansInScope,
  decideLending,
  type LendingDecision,
  type LendingFacts,
  type LoanRule,
  type LoansOfKind,
  maxLoansScope,
  type Period,
} from '../../domain/lending-rules.js';
import type { LoanRecord, RenewableLoan } from '../../domain/loan.js';
import { renewalFacts } from '../../domain/loan.js';
import { localDateOf } from '../../domain/local-dates.js';
import type { BorrowDecision } from '../../domain/policy.js';
import type { Db } from '../client.js';
import { prepared } from '../prepared.js';
import { copies, holds, loans, users } from '../schema/index.js';
import { findBranchCalendar } from './branch-calendars.js';
import { findCandidateRules } from './lending-rules.js';
import { findLoan } from './loans.js';
import { businessTime } from './sql.js';

/** Who borrows: their id and category. */
export interface Borrower {
  id: number;
  patronCategoryId: number;
}

/** A copy as the lending rules see it. */
export interface CopyFacts {
  id: number;
  item_type_id: number;
  branch_id: number;
  /** Where it is now: a member borrows it there. */
  location_branch_id: number;
}

/** The columns of a copy as the lending rules see it: what the decision's reads and the borrow select. */
export const copyFacts = {
  id: copies.id,
  item_type_id: copies.itemTypeId,
  branch_id: copies.branchId,
  location_branch_id: copies.locationBranchId,
};

/**
 * The copy a borrow would lend the borrower: the one set aside for their ready hold, else the first on the
 * shelf (by id), as the lending transaction picks it.
 */
export async function findCopyToLend(db: Db, params: { bookId: number; borrowerId: number; at: Date }) {
  const setAside = sql`(select "mine"."copy_id" from ${holds} as "mine" where "mine"."book_id" = ${params.bookId}
    and "mine"."borrower_id" = ${params.borrowerId} and "mine"."status" = 'ready' and "mine"."ready_until" > ${businessTime(params.at)})`;
  const [copy] = await db
    .select(copyFacts)
    .from(copies)
    .where(eq(copies.id, sql`coalesce(${setAside}, ${firstOnShelf(params.bookId)})`));
  return copy;
}

/**
 * The id of the first copy of the book on the shelf (by id): what a borrow lends a borrower without a copy
 * set aside for them. `bookId` a value, or the outer statement's column (a book read: `books.ts`).
 */
export function firstOnShelf(bookId: number | SQL): SQL {
  return sql`(select "shelf"."id" from ${copies} as "shelf" where "shelf"."book_id" = ${bookId}
    and "shelf"."withdrawn_at" is null and "shelf"."transit_to_branch_id" is null
    and not exists (select 1 from ${loans} as "lent" where "lent"."copy_id" = "shelf"."id" and "lent"."returned_at" is null)
    and not exists (select 1 from ${holds} as "set_aside" where "set_aside"."copy_id" = "shelf"."id" and "set_aside"."status" in ('in_transit', 'ready'))
    order by "shelf"."id" limit 1)`;
}

/** A user as the lending rules see them: their category and home branch. */
export async function findBorrower(db: Db, params: { id: number }) {
  const [borrower] = await db
    .select({ id: users.id, patronCategoryId: users.patronCategoryId, homeBranchId: users.homeBranchId })
    .from(users)
    .where(eq(users.id, params.id));
  return borrower;
}

/** A copy of the book (the one named, else the first not withdrawn), to explain a loan of it. */
export async function findCopyOfBook(
  db: Db,
  params: { bookId: number; copyId?: number | undefined },
): Promise<CopyFacts | undefined> {
  if (params.copyId === undefined) {
    // Prepared: a book read asks it for the hold control of every book with no copy on the shelf.
    const statement = prepared(db, 'find_first_copy', (db) =>
      db
        .select(copyFacts)
        .from(copies)
        .where(and(eq(copies.bookId, sql.placeholder('book')), isNull(copies.withdrawnAt)))
        .orderBy(asc(copies.id))
        .limit(1)
        .prepare('find_first_copy'),
    );
    const [first] = await statement.execute({ book: params.bookId });
    return first;
  }
  const [copy] = await db
    .select(copyFacts)
    .from(copies)
    .where(
      and(
        eq(copies.bookId, params.bookId),
        params.copyId === undefined ? isNull(copies.withdrawnAt) : eq(copies.id, params.copyId),
      ),
    )
    .orderBy(asc(copies.id))
    .limit(1);
  return copy;
}

/** The facts of lending `copy` to the borrower at `branchId` (the copy's home branch when absent). */
export function borrowFacts(borrower: Borrower, copy: CopyFacts, branchId?: number): LendingFacts {
  return {
    patron_category_id: borrower.patronCategoryId,
    item_type_id: copy.item_type_id,
    // A member's own borrow happens where the copy is: its home, unless it floated elsewhere.
    loan_branch_id: branchId ?? copy.location_branch_id,
    home_branch_id: copy.branch_id,
  };
}

/** When lending or renewing: the business time, and the library's time zone in which its branches' days run. */
export interface LendingMoment {
  at: Date;
  timeZone: string;
}

/**
 * The calendar of the branch a loan is lent at (where it is due back), with its closures from the day of
 * `at` on: all a due date from then needs. 422 naming `branch_id` when there is no such branch.
 */
export async function dueCalendar(db: Db, branchId: number, moment: LendingMoment): Promise<BranchCalendar> {
  const calendar = await findBranchCalendar(db, {
    branchId,
    timeZone: moment.timeZone,
    from: localDateOf(moment.at, moment.timeZone),
  });
  if (!calendar) {
    throw new UnprocessableEntity(`branch_id ${branchId} names no branch`, { branch_id: 'names no branch' });
  }
  return calendar;
}

/** When a loan lent or renewed at `at` for `period` is due back at the branch whose calendar this is. */
export function dueAtBranch(at: Date, period: Period, calendar: BranchCalendar): Date {
  return dueDateFor(at, period.period, period.unit, calendar);
}

/**
 * The decision with the borrower's loans counted in the scope of the rule that caps them, and when a loan
 * made at `at` would be due by the calendar of the branch lending it: the one computation of a borrow's due
 * date, which the control shows and the borrow stores.
 */
export function withLoansCounted(
  decision: LendingDecision,
  loansInScope: Map<number, number>,
  at: Date,
  calendar: BranchCalendar,
): BorrowDecision {
  return {
    decision,
    loansInScope: loansInScope.get(decision.sources.max_loans.id) ?? 0,
    due_at: dueAtBranch(at, decision.terms.loan_period, calendar).toISOString(),
  };
}

/** A borrower whose active loans were read with them (a signed-in caller: `SignedIn.loansByKind`). */
export interface BorrowerWithLoans extends Borrower {
  homeBranchId: number;
  loansByKind: readonly LoansOfKind[];
}

/**
 * The rules' decision on lending `copy` to the borrower at `at`, from the rules, loans and calendar of the
 * lending branch given rather than the database's: what a book read's borrow control shows. The borrow
 * itself decides again in its transaction.
 */
export function decideBorrowFrom(
  rules: readonly LoanRule[],
  borrower: BorrowerWithLoans,
  copy: CopyFacts,
  params: { branchId?: number | undefined; at: Date; calendarOf: (branchId: number) => BranchCalendar | undefined },
): BorrowDecision | undefined {
  const facts = borrowFacts(borrower, copy, params.branchId);
  const calendar = params.calendarOf(facts.loan_branch_id as number);
  if (!calendar) return undefined;
  const decision = decideLending(rules, facts);
  return {
    decision,
    loansInScope: countLoansInScope(borrower.loansByKind, maxLoansScope(decision)),
    due_at: dueAtBranch(params.at, decision.terms.loan_period, calendar).toISOString(),
  };
}

/** The rules' decision on lending `copy` to the borrower at `at` (business time), at `branchId` if named. */
export async function decideBorrow(
  db: Db,
  borrower: Borrower,
  copy: CopyFacts,
  params: LendingMoment & { branchId?: number | undefined },
): Promise<BorrowDecision> {
  const facts = borrowFacts(borrower, copy, params.branchId);
  const calendar = await dueCalendar(db, facts.loan_branch_id as number, params);
  const { rules, loansInScope } = await findCandidateRules(db, facts, borrower.id);
  return withLoansCounted(decideLending(rules, facts), loansInScope, params.at, calendar);
}

/**
 * The rules' decision on the borrower holding the book: for its first copy's item type and home branch
 * (rules of any type and branch only, for a book without copies), at the branch where it is picked up —
 * the loan happens there — which is the borrower's home branch unless `pickupBranchId` names another.
 */
export async function decideHold(
  db: Db,
  borrower: Borrower & { homeBranchId: number },
  bookId: number,
  hasCopies = true,
  pickupBranchId?: number,
): Promise<LendingDecision> {
  const copy = hasCopies ? await findCopyOfBook(db, { bookId }) : undefined;
  const facts = holdFacts(borrower, copy, pickupBranchId);
  const { rules } = await findCandidateRules(db, facts, undefined);
  return decideLending(rules, facts);
}

/** `decideHold` from the rules given rather than the database's: what a book read's hold control shows. */
export async function decideHoldFrom(
  db: Db,
  rules: readonly LoanRule[],
  borrower: Borrower & { homeBranchId: number },
  bookId: number,
  hasCopies = true,
  pickupBranchId?: number,
): Promise<LendingDecision> {
  const copy = hasCopies ? await findCopyOfBook(db, { bookId }) : undefined;
  return decideLending(rules, holdFacts(borrower, copy, pickupBranchId));
}

function holdFacts(
  borrower: Borrower & { homeBranchId: number },
  copy: CopyFacts | undefined,
  pickupBranchId: number | undefined,
): LendingFacts {
  return {
    patron_category_id: borrower.patronCategoryId,
    item_type_id: copy?.item_type_id ?? null,
    // A hold's loan happens where it is collected.
    loan_branch_id: pickupBranchOf(borrower, pickupBranchId),
    home_branch_id: copy?.branch_id ?? null,
  };
}

/** The rules' decision on renewing a loan now: its borrower's category now, its copy, where it was lent. */
export async function decideRenewal(db: Db, loan: LoanRecord): Promise<LendingDecision> {
  const facts = renewalFacts(loan);
  const { rules } = await findCandidateRules(db, facts, undefined);
  return decideLending(rules, facts);
}

/**
 * A loan with the renewal the rules as they stand now would decide (none once it is returned): what the loan's
 * `renew` control and a renewal request are both decided from.
 */
export async function findRenewableLoan(db: Db, params: { id: number }): Promise<RenewableLoan | undefined> {
  const loan = await findLoan(db, params);
  if (!loan) return undefined;
  return { ...loan, decision: loan.returned_at === null ? await decideRenewal(db, loan) : undefined };
}
