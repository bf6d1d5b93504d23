/**
 * @module Lending and returning. The rules that must hold under concurrency are the database's: the
 * partial unique index allows one active loan per book, the borrower's row lock serialises the cap
 * check with the insert, and a return is a single conditional UPDATE.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { NotFound, UnprocessableEntity } from '../../domain/errors.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import type { Loan } from '../../domain/loan.js';
import { bookOnLoan, loanCapReached } from '../../domain/policy.js';
import type { Database, Db } from '../client.js';
import { constraintViolation, FOREIGN_KEY_VIOLATION } from '../errors.js';
import { books, loans, users } from '../schema/index.js';
import { type ListingScope, type ListingTable, readAll, readPage } from './listing.js';
import { isoTimestamp } from './sql.js';

const loanColumns = {
  id: loans.id,
  book_id: loans.bookId,
  borrower_id: loans.borrowerId,
  borrowed_at: isoTimestamp(loans.borrowedAt).as('borrowed_at'),
  due_at: isoTimestamp(loans.dueAt).as('due_at'),
  returned_at: sql<
    string | null
  >`case when ${loans.returnedAt} is null then null else ${isoTimestamp(loans.returnedAt)} end`.as('returned_at'),
};

const active = sql`${loans.returnedAt} is null`;

export const loanListing: ListingTable = {
  from: loans,
  selection: loanColumns,
  columns: { id: loans.id, book_id: loans.bookId, borrower_id: loans.borrowerId },
  id: loans.id,
  search: { column: sql`''::tsvector`, config: 'simple' },
  derived: {
    status: (values) =>
      values.includes('active') && values.includes('returned')
        ? sql`true`
        : values.includes('active')
          ? active
          : sql`not (${active})`,
    overdue: (values) =>
      values.includes(true) && values.includes(false)
        ? sql`true`
        : values.includes(true)
          ? sql`(${active} and ${loans.dueAt} < now())`
          : sql`not (${active} and ${loans.dueAt} < now())`,
  },
};

/** Which loans a listing ranges over: all, or one borrower's. */
export interface LoanScope {
  borrowerId?: number;
}

export interface BorrowParams {
  bookId: number;
  borrowerId: number;
  loanDays: number;
  /** Cap on a member's active loans; `undefined` for none. */
  maxActiveLoans: number | undefined;
}

/**
 * Lends the book: one transaction that locks the borrower's row (so concurrent borrows by one member
 * count their loans one after another), checks the cap, and inserts the loan, which the partial unique
 * index refuses while the book is on loan.
 */
export async function borrowBook(db: Db, params: BorrowParams): Promise<Loan> {
  try {
    return await db.transaction(async (tx) => {
      const [borrower] = await tx
        .select({ role: users.role })
        .from(users)
        .where(eq(users.id, params.borrowerId))
        .for('update');
      if (!borrower) {
        throw new UnprocessableEntity(`borrower_id ${params.borrowerId} names no user`, {
          borrower_id: 'names no user',
        });
      }
      if (borrower.role === 'member' && params.maxActiveLoans !== undefined) {
        const [held] = await tx
          .select({ n: count() })
          .from(loans)
          .where(and(eq(loans.borrowerId, params.borrowerId), active));
        if ((held?.n ?? 0) >= params.maxActiveLoans) throw loanCapReached(params.maxActiveLoans);
      }
      const [loan] = await tx
        .insert(loans)
        .values({
          bookId: params.bookId,
          borrowerId: params.borrowerId,
          dueAt: sql`now() + make_interval(days => ${params.loanDays})`,
        })
        .returning(loanColumns);
      return loan as Loan;
    });
  } catch (error) {
    const violation = constraintViolation(error);
    if (violation?.constraint === 'loans_one_active_per_book_idx') {
      throw bookOnLoan(params.bookId, await activeDueDate(db, params.bookId));
    }
    // The book was deleted after the route found it.
    if (violation?.code === FOREIGN_KEY_VIOLATION) throw new NotFound(`book ${params.bookId} not found`);
    throw error;
  }
}

async function activeDueDate(db: Db, bookId: number): Promise<string | null> {
  const [loan] = await db
    .select({ due_at: loanColumns.due_at })
    .from(loans)
    .where(and(eq(loans.bookId, bookId), active));
  return loan?.due_at ?? null;
}

export async function findLoan(db: Db, params: { id: number }): Promise<Loan | undefined> {
  const [loan] = await db.select(loanColumns).from(loans).where(eq(loans.id, params.id));
  return loan;
}

/**
 * Stamps the return, only if the loan is still active: of two returns racing, one wins. Answers the
 * book's author too, whose list of books shows the book available again.
 */
export async function returnLoan(
  db: Db,
  params: { id: number },
): Promise<(Loan & { book_author_id: number }) | undefined> {
  const [loan] = await db
    .update(loans)
    .set({ returnedAt: sql`greatest(now(), ${loans.borrowedAt})` })
    .where(and(eq(loans.id, params.id), active))
    .returning({
      ...loanColumns,
      book_author_id:
        sql<number>`(select "lent"."author_id" from ${books} as "lent" where "lent"."id" = ${loans}."book_id")`.as(
          'book_author_id',
        ),
    });
  return loan;
}

/** One page of the listing and its total. */
export function listLoansPage(db: Db, listing: PagedListing, scope: LoanScope = {}) {
  return readPage<Loan>(db, loanListing, listing, scopeOf(scope));
}

/** Every item of the listing, streamed from a cursor. */
export function streamLoans(database: Database, listing: Listing, scope: LoanScope = {}) {
  return readAll<Loan>(database, loanListing, listing, scopeOf(scope));
}

/** Loans are few beside books (no counter): their totals are bounded counts. */
function scopeOf(scope: LoanScope): ListingScope {
  return { conditions: scope.borrowerId === undefined ? [] : [eq(loans.borrowerId, scope.borrowerId)] };
}
