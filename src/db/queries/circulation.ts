/**
 * @module Circulation: lending, returning, renewing, holds, copies and their transit between branches. Each
 * step is one transaction that locks the book's row first and ends with `settle_circulation` (migration 0011;
 * where copies go, migration 0028), so a book's steps are serial.
 */
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { type FineLimit, fineLimitReason, overFineLimit } from '../../domain/account.js';
import type { Copy } from '../../domain/copy.js';
import type { Placement, ReturnedLoan, TransitCheckIn } from '../../domain/desk.js';
import { Conflict, NotFound, UnprocessableEntity } from '../../domain/errors.js';
import { overdueFine } from '../../domain/fines.js';
import { type Hold, pickupBranchOf } from '../../domain/hold.js';
import { decideLending, type LendingDecision, lendingRefusalReason } from '../../domain/lending-rules.js';
import type { Loan, LoanRecord } from '../../domain/loan.js';
import { type Money, money } from '../../domain/money.js';
import {
  alreadyBorrowed,
  alreadyHeld,
  copyOnShelf,
  holdCapReached,
  lendingRefused,
  noCopyAvailable,
} from '../../domain/refusals.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { constraintViolation } from '../errors.js';
import { accounts, books, branches, copies, holds, loans, users } from '../schema/index.js';
import { chargeOverdueFine, findAccount } from './accounts.js';
import { findBranchCalendar, lockBranchCalendar, lockLendingBranches } from './branch-calendars.js';
import { copyColumns, holdColumns, loanColumns } from './circulation-columns.js';
import { type CopyPlace, placeOf, rejectedPlace } from './copies.js';
import {
  borrowFacts,
  type CopyFacts,
  copyFacts,
  dueAtBranch,
  dueCalendar,
  withLoansCounted,
} from './lending-decisions.js';
import { findCandidateRules } from './lending-rules.js';
import { findLoan } from './loans.js';
import { businessTime, isoTimestamp } from './sql.js';

/**
 * `settle_circulation` expires ready holds whose time ran out, sets copies on the shelf aside for the queue
 * and recounts the book's copies. Partial unique indexes back the rules up: one active loan per copy, one
 * ready hold per copy, one open hold per user and book, one active loan per user and book.
 */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const activeLoan = sql`${loans.returnedAt} is null`;
const openHold = sql`${holds.status} in ('waiting', 'in_transit', 'ready')`;

/**
 * Copies of the book on the shelf for anyone: not withdrawn, not lent, not in transit, not given to a hold
 * (on its way to it or set aside).
 */
const onShelf = (bookId: number): SQL => sql`${copies.bookId} = ${bookId} and ${copies.withdrawnAt} is null
  and ${copies.transitToBranchId} is null
  and not exists (select 1 from ${loans} as "lent" where "lent"."copy_id" = ${copies}."id" and "lent"."returned_at" is null)
  and not exists (select 1 from ${holds} as "set_aside" where "set_aside"."copy_id" = ${copies}."id" and "set_aside"."status" in ('in_transit', 'ready'))`;

/** Locks the book's row for its circulation step; `false` when there is no such book. */
export async function lockBook(tx: Tx, bookId: number): Promise<boolean> {
  const [row] = await tx.select({ id: books.id }).from(books).where(eq(books.id, bookId)).for('no key update');
  return row !== undefined;
}

async function settle(tx: Tx, bookId: number, holdDays: number, at: Date): Promise<void> {
  await tx.execute(sql`select settle_circulation(${bookId}::integer, ${holdDays}::integer, ${businessTime(at)})`);
}

/** The borrower's row, locked: one user's borrows and holds are counted one after another. */
async function lockBorrower(tx: Tx, borrowerId: number) {
  const [borrower] = await tx
    .select({ id: users.id, patronCategoryId: users.patronCategoryId, homeBranchId: users.homeBranchId })
    .from(users)
    .where(eq(users.id, borrowerId))
    .for('update');
  if (!borrower) {
    throw new UnprocessableEntity(`borrower_id ${borrowerId} names no user`, { borrower_id: 'names no user' });
  }
  return borrower;
}

/** When the next copy of a book is due back. */
async function nextDue(tx: Tx | Db, bookId: number): Promise<string | null> {
  const [row] = await tx
    .select({ due_at: sql<string | null>`min(${isoTimestamp(loans.dueAt)})` })
    .from(loans)
    .where(and(eq(loans.bookId, bookId), activeLoan));
  return row?.due_at ?? null;
}

export interface BorrowParams {
  bookId: number;
  borrowerId: number;
  /** A copy the librarian named; any copy on the shelf otherwise. */
  copyId?: number | undefined;
  /** Where it is lent (a librarian's desk); the copy's home branch when absent (a member's own borrow). */
  branchId?: number | undefined;
  holdDays: number;
  /** Most the borrower may owe and borrow (`CATALOGUE_FINE_LIMIT`), in minor units of `currency`. */
  fineLimit: FineLimit;
  currency: string;
  /** Business time: when the loan is made (`Clock`). */
  at: Date;
  /** The library's time zone, in which the lending branch's days (and so the due date) run. */
  timeZone: string;
}

/** The terms a loan keeps, from the decision, as the loans table stores them. */
export function loanTerms(decision: LendingDecision) {
  const { terms, sources } = decision;
  const limit = (value: number | 'none') => (value === 'none' ? null : value);
  return {
    loanPeriod: terms.loan_period.period,
    loanPeriodUnit: terms.loan_period.unit,
    renewalsAllowed: terms.renewals_allowed,
    finePerDay: terms.fine_per_day,
    graceDays: terms.grace_days,
    fineCap: limit(terms.fine_cap),
    lostAfterDays: limit(terms.lost_after_days),
    lostCharge: terms.lost_charge,
    floating: terms.floating,
    termRules: Object.fromEntries(Object.entries(sources).map(([term, rule]) => [term, rule.id])),
  };
}

/**
 * Lends a copy: the one set aside for the borrower's ready hold (which it fulfils), or one on the shelf.
 * With none, 409 saying a hold is possible; of two borrowers racing for the last copy, one gets it. The
 * lending rules decide its terms here, under the borrower's lock, so their cap holds against races.
 */
export async function borrowCopy(db: Db, params: BorrowParams): Promise<LoanRecord & { decision: LendingDecision }> {
  const { bookId, borrowerId } = params;
  try {
    return await db.transaction(async (tx) => {
      const borrower = await lockBorrower(tx, borrowerId);
      // What they owe, read under their lock: the policy's rule, for whoever the borrower is.
      const { balance } = await findAccount(tx, { userId: borrowerId, currency: params.currency });
      const owed = fineLimitReason(balance, params.fineLimit);
      if (owed) throw overFineLimit(owed);
      if (!(await lockBook(tx, bookId))) throw new NotFound(`book ${bookId} not found`);
      await lockLendingBranches(tx, { bookId, branchId: params.branchId });
      await settle(tx, bookId, params.holdDays, params.at);
      const [ready] = await tx
        .select({ id: holds.id, copyId: holds.copyId })
        .from(holds)
        .where(and(eq(holds.bookId, bookId), eq(holds.borrowerId, borrowerId), eq(holds.status, 'ready')));
      const copyId = ready ? await heldCopy(params, ready.copyId as number) : await shelfCopy(tx, params);
      const [copy] = await tx.select(copyFacts).from(copies).where(eq(copies.id, copyId));
      const facts = borrowFacts(borrower, copy as CopyFacts, params.branchId);
      const branchId = facts.loan_branch_id as number;
      // Read under the branch's lock: a closure added meanwhile either waits for this loan (and moves it)
      // or is in the calendar read here.
      if (!(await lockBranchCalendar(tx, branchId, 'share'))) {
        throw new UnprocessableEntity(`branch_id ${branchId} names no branch`, { branch_id: 'names no branch' });
      }
      const calendar = await dueCalendar(tx, branchId, params);
      const { rules, loansInScope } = await findCandidateRules(tx, facts, borrowerId);
      // The due date is the decision's: what the borrow control showed, by the same computation.
      const decided = withLoansCounted(decideLending(rules, facts), loansInScope, params.at, calendar);
      const refused = lendingRefusalReason(decided.decision, decided.loansInScope);
      if (refused) throw lendingRefused(refused);
      const [loan] = await tx
        .insert(loans)
        .values({
          bookId,
          borrowerId,
          copyId,
          borrowedAt: params.at,
          branchId,
          dueAt: new Date(decided.due_at),
          ...loanTerms(decided.decision),
        })
        .returning(loanColumns);
      if (ready) {
        await tx
          .update(holds)
          .set({ status: 'fulfilled', endedAt: params.at, loanId: (loan as Loan).id })
          .where(eq(holds.id, ready.id));
      }
      await settle(tx, bookId, params.holdDays, params.at);
      // Read as settled, with whether anyone else waits for the book: the answer offers `renew` as a read does.
      const made = (await findLoan(tx, { id: (loan as Loan).id })) as LoanRecord;
      return { ...made, decision: decided.decision };
    });
  } catch (error) {
    const violation = constraintViolation(error);
    if (violation?.constraint === 'loans_one_active_per_borrower_and_book_idx') throw alreadyBorrowed(bookId);
    if (violation?.constraint === 'loans_one_active_per_copy_idx') {
      throw noCopyAvailable(bookId, await nextDue(db, bookId));
    }
    throw error;
  }

  async function heldCopy(p: BorrowParams, setAside: number): Promise<number> {
    if (p.copyId !== undefined && p.copyId !== setAside) {
      throw new Conflict(
        `copy ${setAside} is set aside for the borrower\u2019s hold: lend that one, not copy ${p.copyId}`,
      );
    }
    return setAside;
  }

  async function shelfCopy(tx: Tx, p: BorrowParams): Promise<number> {
    const [onLoanAlready] = await tx
      .select({ id: loans.id })
      .from(loans)
      .where(and(eq(loans.bookId, p.bookId), eq(loans.borrowerId, p.borrowerId), activeLoan));
    if (onLoanAlready) throw alreadyBorrowed(p.bookId);
    const named = p.copyId === undefined ? sql`true` : sql`${copies.id} = ${p.copyId}`;
    const [free] = await tx
      .select({ id: copies.id })
      .from(copies)
      .where(and(onShelf(p.bookId), named))
      .orderBy(copies.id)
      .limit(1);
    if (free) return free.id;
    if (p.copyId !== undefined) {
      const [named] = await tx
        .select({ id: copies.id })
        .from(copies)
        .where(and(eq(copies.id, p.copyId), eq(copies.bookId, p.bookId)));
      if (!named) {
        throw new UnprocessableEntity(`copy_id ${p.copyId} names no copy of book ${p.bookId}`, {
          copy_id: 'names no copy of this book',
        });
      }
      throw new Conflict(`copy ${p.copyId} is not on the shelf: lend another, or place a hold`);
    }
    throw noCopyAvailable(p.bookId, await nextDue(tx, p.bookId));
  }
}

/** What a return needs besides the loan: the hold days, and the library's time zone and currency for its fine. */
export interface ReturnParams {
  id: number;
  /** Where it is handed in; the branch that lent it when absent. */
  branchId?: number | undefined;
  holdDays: number;
  /** Business time: when the copy is handed back (`Clock`). */
  at: Date;
  /** The library's time zone: the local days a fine counts (`CATALOGUE_TIME_ZONE`). */
  timeZone: string;
  /** The library's currency: a fine's (`CATALOGUE_CURRENCY`). */
  currency: string;
}

/**
 * Charges the overdue fine of an active loan handed back at `at`, under the book's lock, before the loan is
 * stamped: by the terms the loan keeps, counting the open days of the calendar of the branch where it was
 * lent (where it was due back). Nothing when the fine is 0 or the loan was fined already. Answers the fine
 * charged, or null.
 */
async function chargeLateReturn(tx: Tx, params: ReturnParams): Promise<Money | null> {
  const [loan] = await tx
    .select({
      borrowerId: loans.borrowerId,
      branchId: loans.branchId,
      borrowedAt: loans.borrowedAt,
      dueAt: loans.dueAt,
      finePerDay: loans.finePerDay,
      graceDays: loans.graceDays,
      fineCap: loans.fineCap,
    })
    .from(loans)
    .where(and(eq(loans.id, params.id), activeLoan));
  if (!loan || loan.finePerDay === 0) return null;
  // As the return stamps it: never before the loan began.
  const returnedAt = new Date(Math.max(params.at.getTime(), loan.borrowedAt.getTime()));
  if (returnedAt <= loan.dueAt) return null;
  const calendar = await findBranchCalendar(tx, { branchId: loan.branchId, timeZone: params.timeZone });
  if (!calendar) return null;
  const { amount } = overdueFine(
    {
      finePerDay: money(loan.finePerDay, params.currency),
      graceDays: loan.graceDays,
      fineCap: loan.fineCap === null ? 'none' : money(loan.fineCap, params.currency),
    },
    loan.dueAt,
    returnedAt,
    calendar,
  );
  if (amount.minor === 0) return null;
  await chargeOverdueFine(tx, {
    userId: loan.borrowerId,
    loanId: params.id,
    amount: amount.minor,
    currency: amount.currency,
    at: params.at,
  });
  return amount;
}

/**
 * Stamps the return, only if the loan is still active (of two returns racing, one wins), and charges its
 * overdue fine. The copy is then where it was handed in (`branchId`, the branch that lent it unless named)
 * and settling places it: to the first waiting hold (set aside there, or sent to its pickup branch), else
 * home unless the loan floats. Answers where settling put it and the fine charged, and the book's author,
 * whose list of books shows it again.
 */
export async function returnCopy(db: Db, params: ReturnParams): Promise<ReturnedLoan | undefined> {
  return db
    .transaction(async (tx) => {
      const [found] = await tx.select({ bookId: loans.bookId }).from(loans).where(eq(loans.id, params.id));
      if (!found || !(await lockBook(tx, found.bookId))) return undefined;
      // The fine first: its entry locks the account's row before the feed's lock, the order every writer of
      // an account keeps (drizzle/0029_accounts.sql).
      const fine = await chargeLateReturn(tx, params);
      const [loan] = await tx
        .update(loans)
        .set({ returnedAt: sql`greatest(${businessTime(params.at)}, ${loans.borrowedAt})` })
        .where(and(eq(loans.id, params.id), activeLoan))
        .returning({
          ...loanColumns,
          book_author_id:
            sql<number>`(select "lent"."author_id" from ${books} as "lent" where "lent"."id" = ${loans}."book_id")`.as(
              'book_author_id',
            ),
        });
      if (!loan) return undefined;
      await tx
        .update(copies)
        .set({ locationBranchId: params.branchId ?? loan.branch_id, transitToBranchId: null })
        .where(eq(copies.id, loan.copy_id));
      await settle(tx, found.bookId, params.holdDays, params.at);
      return { ...loan, placement: await placementOf(tx, loan.copy_id), fine };
    })
    .catch(rejectedBranch('branch_id', 'copies_location_branch_id_branches_id_fk'));
}

/**
 * Where settling put a copy, read in the settling transaction (or after it): set aside for a ready hold (on
 * the hold shelf where it is), on its way to a branch (the pickup branch of the hold it travels for, or home), or on the
 * shelf where it is. The hold it serves names the patron.
 */
export async function placementOf(tx: Tx | Db, copyId: number): Promise<Placement> {
  const [row] = rowsOf<{
    location_branch_id: number;
    transit_to_branch_id: number | null;
    branch_name: string;
    hold_id: number | null;
    hold_status: string | null;
    patron_id: number | null;
    patron_name: string | null;
  }>(
    await tx.execute(sql`select c.location_branch_id, c.transit_to_branch_id, b.name as branch_name,
        h.id as hold_id, h.status as hold_status, u.id as patron_id, u.name as patron_name
      from ${copies} c
      join ${branches} b on b.id = coalesce(c.transit_to_branch_id, c.location_branch_id)
      left join ${holds} h on h.copy_id = c.id and h.status in ('ready', 'in_transit')
      left join ${users} u on u.id = h.borrower_id
      where c.id = ${copyId}`),
  );
  const placed = row as NonNullable<typeof row>;
  const goesTo =
    placed.hold_status === 'ready' ? 'hold_shelf' : placed.transit_to_branch_id !== null ? 'in_transit' : 'shelf';
  return {
    goes_to: goesTo,
    branch_id: Number(placed.transit_to_branch_id ?? placed.location_branch_id),
    branch_name: placed.branch_name,
    hold_id: placed.hold_id === null ? null : Number(placed.hold_id),
    patron_id: placed.patron_id === null ? null : Number(placed.patron_id),
    patron_name: placed.patron_name,
  };
}

/** A branch named by `field` that does not exist: 422 naming the field (the transaction rolled back). */
export function rejectedBranch(field: string, constraint: string) {
  return (error: unknown): never => {
    if (constraintViolation(error)?.constraint === constraint) {
      throw new UnprocessableEntity(`${field} names no branch`, { [field]: 'names no branch' });
    }
    throw error;
  };
}

/**
 * Receives a copy in transit at its destination, only if it is still in transit (of two receipts racing, one
 * wins): it is then there; a hold it travelled for becomes ready (for the hold days from now), and settling
 * places it otherwise, as a returned copy is placed. `undefined` when the copy is not in transit.
 */
export async function receiveCopy(
  db: Db,
  params: { id: number; holdDays: number; at: Date },
): Promise<Copy | undefined> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ bookId: copies.bookId }).from(copies).where(eq(copies.id, params.id));
    if (!found || !(await lockBook(tx, found.bookId))) return undefined;
    if (!(await arrive(tx, found.bookId, params))) return undefined;
    const [copy] = await tx.select(copyColumns).from(copies).where(eq(copies.id, params.id));
    return copy as Copy;
  });
}

/**
 * The copy arrives where it was going, if it is still in transit (under the book's lock): the hold it
 * travelled for is ready, or settling places it. Answers whether it arrived.
 */
async function arrive(tx: Tx, bookId: number, params: { id: number; holdDays: number; at: Date }): Promise<boolean> {
  const [arrived] = await tx
    .update(copies)
    // Both read the row as it was: the copy is where it was going, and going nowhere.
    .set({ locationBranchId: sql`${copies.transitToBranchId}`, transitToBranchId: null })
    .where(and(eq(copies.id, params.id), sql`${copies.transitToBranchId} is not null`))
    .returning({ id: copies.id });
  if (!arrived) return false;
  await tx
    .update(holds)
    .set({
      status: 'ready',
      readyAt: params.at,
      readyUntil: sql`${businessTime(params.at)} + make_interval(days => ${params.holdDays}::integer)`,
    })
    .where(and(eq(holds.copyId, params.id), eq(holds.status, 'in_transit')));
  await settle(tx, bookId, params.holdDays, params.at);
  return true;
}

/**
 * Checks in a copy in transit, scanned at a desk's branch: at its destination it is received, as `receive`
 * does (`arrive`); anywhere else it is there now and travels on to where it was going, for the same hold if
 * any (what Koha does with a "wrong transfer"). Answers which, and where the copy goes now; `undefined` when
 * the copy is not in transit (any more).
 */
export async function checkInTransit(
  db: Db,
  params: { id: number; branchId: number; holdDays: number; at: Date },
): Promise<TransitCheckIn | undefined> {
  return db
    .transaction(async (tx): Promise<TransitCheckIn | undefined> => {
      const [found] = await tx.select({ bookId: copies.bookId }).from(copies).where(eq(copies.id, params.id));
      if (!found || !(await lockBook(tx, found.bookId))) return undefined;
      // Read under the book's lock, which every step that moves a copy takes first.
      const [going] = await tx.select({ to: copies.transitToBranchId }).from(copies).where(eq(copies.id, params.id));
      if (going?.to === null || going?.to === undefined) return undefined;
      if (going.to === params.branchId) {
        await arrive(tx, found.bookId, params);
        return { action: 'received', placement: await placementOf(tx, params.id) };
      }
      await tx.update(copies).set({ locationBranchId: params.branchId }).where(eq(copies.id, params.id));
      return { action: 'sent_on', placement: await placementOf(tx, params.id) };
    })
    .catch(rejectedBranch('branch_id', 'copies_location_branch_id_branches_id_fk'));
}

/**
 * Renews: the renewal period from now, counted, only while the loan is active, not overdue, below the
 * renewals the rules allow now, its book held by nobody and its borrower within the fine limit, all checked
 * by the UPDATE itself under the book's lock; the loan takes the terms decided now. `undefined` when any of
 * it fails (the caller reads the loan again to say which).
 */
export async function renewLoan(
  db: Db,
  params: { id: number; decision: LendingDecision; at: Date; timeZone: string; fineLimit: FineLimit },
): Promise<Loan | undefined> {
  // Not for a borrower who owes more than the limit (the policy's rule, checked again as the loan is renewed).
  const withinFineLimit =
    params.fineLimit === 'none'
      ? sql`true`
      : sql`coalesce((select ${accounts.balance} from ${accounts} where ${accounts.userId} = ${loans.borrowerId}), 0) <= ${params.fineLimit}`;
  const { terms } = params.decision;
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ bookId: loans.bookId, branchId: loans.branchId })
      .from(loans)
      .where(eq(loans.id, params.id));
    if (!found || !(await lockBook(tx, found.bookId))) return undefined;
    // Due back where it was lent, by that branch's calendar read under its lock (as a borrow reads it).
    await lockBranchCalendar(tx, found.branchId, 'share');
    const calendar = await dueCalendar(tx, found.branchId, params);
    const [loan] = await tx
      .update(loans)
      .set({
        dueAt: dueAtBranch(params.at, terms.renewal_period, calendar),
        renewals: sql`${loans.renewals} + 1`,
        ...loanTerms(params.decision),
        // The loan period stays the one it was lent for; the renewal period is the rule's now.
        loanPeriod: sql`${loans.loanPeriod}`,
        loanPeriodUnit: sql`${loans.loanPeriodUnit}`,
      })
      .where(
        and(
          eq(loans.id, params.id),
          activeLoan,
          sql`${loans.lostAt} is null`,
          sql`${loans.dueAt} > ${businessTime(params.at)}`,
          sql`${loans.renewals} < ${terms.renewals_allowed}`,
          withinFineLimit,
          sql`not exists (select 1 from ${holds} as "held" where "held"."book_id" = ${found.bookId} and "held"."status" in ('waiting', 'in_transit', 'ready'))`,
        ),
      )
      .returning(loanColumns);
    return loan;
  });
}

export interface PlaceHoldParams {
  bookId: number;
  borrowerId: number;
  /** Where the copy is collected; the borrower's home branch when absent. */
  pickupBranchId?: number | undefined;
  maxHolds: number;
  holdDays: number;
  /** Business time: when the hold is placed (`Clock`). */
  at: Date;
}

/**
 * When a hold joins the queue, which is ordered by (placed_at, id): the business clock's `at`, never before
 * the last open hold of the book. Holds are inserted under the book's lock, so their ids follow the order in
 * which they took it; a transaction that read the clock earlier but waited for the lock takes the last
 * hold's time, and its id puts it after that hold, never ahead of those that held the lock first.
 */
const queuedAt = (bookId: number, at: Date): SQL =>
  sql`greatest(${businessTime(at)}, (select max(${holds.placedAt}) from ${holds} where ${holds.bookId} = ${bookId} and ${openHold}))`;

/** Joins the book's queue, if no copy is on the shelf, once per user, below the cap on open holds. */
export async function placeHold(db: Db, params: PlaceHoldParams): Promise<Hold> {
  const { bookId, borrowerId } = params;
  try {
    return await db.transaction(async (tx) => {
      const borrower = await lockBorrower(tx, borrowerId);
      const [open] = await tx
        .select({ n: count() })
        .from(holds)
        .where(and(eq(holds.borrowerId, borrowerId), openHold));
      if ((open?.n ?? 0) >= params.maxHolds) throw holdCapReached(params.maxHolds);
      if (!(await lockBook(tx, bookId))) throw new NotFound(`book ${bookId} not found`);
      await settle(tx, bookId, params.holdDays, params.at);
      const [book] = await tx.select({ available: books.copiesAvailable }).from(books).where(eq(books.id, bookId));
      if ((book?.available ?? 0) > 0) throw copyOnShelf(bookId);
      const [onLoan] = await tx
        .select({ id: loans.id })
        .from(loans)
        .where(and(eq(loans.bookId, bookId), eq(loans.borrowerId, borrowerId), activeLoan));
      if (onLoan) throw alreadyBorrowed(bookId);
      const [inserted] = await tx
        .insert(holds)
        .values({
          bookId,
          borrowerId,
          placedAt: queuedAt(bookId, params.at),
          pickupBranchId: pickupBranchOf(borrower, params.pickupBranchId),
        })
        .returning({ id: holds.id });
      // Read after the insert, under the book's lock: every hold queued before this one has committed, so
      // the position counts them all and no later one.
      const [hold] = await tx
        .select(holdColumns(params.at))
        .from(holds)
        .where(eq(holds.id, (inserted as { id: number }).id));
      return hold as Hold;
    });
  } catch (error) {
    if (constraintViolation(error)?.constraint === 'holds_one_open_per_borrower_idx') {
      const [held] = await db
        .select({ id: holds.id })
        .from(holds)
        .where(and(eq(holds.bookId, bookId), eq(holds.borrowerId, borrowerId), openHold));
      throw alreadyHeld(bookId, held?.id ?? 0);
    }
    return rejectedBranch('pickup_branch_id', 'holds_pickup_branch_id_branches_id_fk')(error);
  }
}

/**
 * Cancels an open hold (of two cancels racing, one wins); a copy set aside for it passes on. A copy on its
 * way to it travels on, and is placed when it is received.
 */
export async function cancelHold(
  db: Db,
  params: { id: number; holdDays: number; at: Date },
): Promise<Hold | undefined> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ bookId: holds.bookId }).from(holds).where(eq(holds.id, params.id));
    if (!found || !(await lockBook(tx, found.bookId))) return undefined;
    // A ready hold whose time ran out is expired, not cancelled: settling first stamps it so.
    await settle(tx, found.bookId, params.holdDays, params.at);
    const [cancelled] = await tx
      .update(holds)
      .set({ status: 'cancelled', endedAt: params.at })
      .where(and(eq(holds.id, params.id), openHold))
      .returning({ id: holds.id });
    if (!cancelled) return undefined;
    await settle(tx, found.bookId, params.holdDays, params.at);
    const [hold] = await tx.select(holdColumns(params.at)).from(holds).where(eq(holds.id, params.id));
    return hold as Hold;
  });
}

/** Adds a copy to a book; it goes to the first waiting hold, if any. 409 for a barcode in use. */
export async function addCopy(
  db: Db,
  params: { bookId: number; barcode: string | undefined; holdDays: number; at: Date } & CopyPlace,
): Promise<Copy> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await lockBook(tx, params.bookId))) throw new NotFound(`book ${params.bookId} not found`);
      const [inserted] = await tx
        .insert(copies)
        .values({
          bookId: params.bookId,
          barcode: params.barcode ?? null,
          addedAt: params.at,
          ...placeOf(params),
          // A new copy is at its home.
          ...(params.branchId !== undefined && { locationBranchId: params.branchId }),
        })
        .returning({ id: copies.id });
      await settle(tx, params.bookId, params.holdDays, params.at);
      const [copy] = await tx
        .select(copyColumns)
        .from(copies)
        .where(eq(copies.id, (inserted as { id: number }).id));
      return copy as Copy;
    });
  } catch (error) {
    if (constraintViolation(error)?.constraint === 'copies_barcode_idx') {
      throw new Conflict(`barcode ${params.barcode} is already another copy\u2019s`);
    }
    return rejectedPlace(error);
  }
}

/**
 * Withdraws a copy that is not on loan (checked by the UPDATE under the book's lock); one in transit goes
 * no further. A hold it was given to goes back to waiting, in its place, and the book's other copies serve
 * the queue.
 */
export async function withdrawCopy(
  db: Db,
  params: { id: number; holdDays: number; at: Date },
): Promise<Copy | undefined> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ bookId: copies.bookId }).from(copies).where(eq(copies.id, params.id));
    if (!found || !(await lockBook(tx, found.bookId))) return undefined;
    const [withdrawn] = await tx
      .update(copies)
      .set({ withdrawnAt: params.at, transitToBranchId: null })
      .where(
        and(
          eq(copies.id, params.id),
          sql`${copies.withdrawnAt} is null`,
          sql`not exists (select 1 from ${loans} as "lent" where "lent"."copy_id" = ${params.id} and "lent"."returned_at" is null)`,
        ),
      )
      .returning({ id: copies.id });
    if (!withdrawn) return undefined;
    await tx
      .update(holds)
      .set({ status: 'waiting', copyId: null, readyAt: null, readyUntil: null })
      .where(and(eq(holds.copyId, params.id), sql`${holds.status} in ('in_transit', 'ready')`));
    await settle(tx, found.bookId, params.holdDays, params.at);
    const [copy] = await tx.select(copyColumns).from(copies).where(eq(copies.id, params.id));
    return copy as Copy;
  });
}

/**
 * Passes on the copies of the book's ready holds whose time ran out, if it has any (otherwise one indexed
 * read). A borrow or hold is decided on the book as read, and a step that refuses rolls its own settling
 * back: settling first, in a transaction of its own, lets the request see the queue as it now is.
 */
export async function settleExpiredHolds(
  db: Db,
  params: { bookId: number; holdDays: number; at: Date },
): Promise<void> {
  const [due] = await db
    .select({ id: holds.id })
    .from(holds)
    .where(
      and(
        eq(holds.bookId, params.bookId),
        eq(holds.status, 'ready'),
        sql`${holds.readyUntil} <= ${businessTime(params.at)}`,
      ),
    )
    .limit(1);
  if (!due) return;
  await db.transaction(async (tx) => {
    if (await lockBook(tx, params.bookId)) await settle(tx, params.bookId, params.holdDays, params.at);
  });
}

/** Expires ready holds whose time ran out by `at` on every book, passing their copies on; answers the books settled. */
export async function expireReadyHolds(db: Db, params: { holdDays: number; at: Date }): Promise<number> {
  const [row] = rowsOf<{ settled: number }>(
    await db.execute(
      sql`select expire_ready_holds(${params.holdDays}::integer, ${businessTime(params.at)}) as settled`,
    ),
  );
  return Number(row?.settled ?? 0);
}
