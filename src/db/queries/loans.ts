/**
 * @module Reading loans, one or a listing. Lending, returning and renewing are circulation steps
 * (`circulation.ts`).
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { loanListingSpec } from '../../domain/listings.js';
import type { Loan, LoanRecord } from '../../domain/loan.js';
import type { Database, Db } from '../client.js';
import { accounts, copies, loans, users } from '../schema/index.js';
import { loanBookHeld, loanColumns } from './circulation-columns.js';
import { type ListingScope, listingTable, readAll, readPage } from './listing.js';
import { anyOf, businessTime } from './sql.js';

const active = sql`${loans.returnedAt} is null`;
/** Active and past due at `at` (business time). */
const overdue = (at: Date) => sql`(${active} and ${loans.dueAt} <= ${businessTime(at)})`;

/**
 * `active` is every loan not returned (overdue and lost ones too); `overdue` those past due and not declared
 * lost; `lost` those declared lost and not back; `returned` the rest. The `overdue` filter is past due, lost or not.
 */
const statusConditions = (at: Date): Record<string, SQL> => ({
  active,
  overdue: sql`(${overdue(at)} and ${loans.lostAt} is null)`,
  lost: sql`(${active} and ${loans.lostAt} is not null)`,
  returned: sql`not (${active})`,
});

/** The listing of loans, their `overdue` filters decided at `at`. */
export const loanListing = (at: Date) => {
  const conditions = statusConditions(at);
  return listingTable(loanListingSpec, {
    from: loans,
    selection: loanColumns,
    columns: { id: loans.id, book_id: loans.bookId, borrower_id: loans.borrowerId, copy_id: loans.copyId },
    id: loans.id,
    search: { column: sql`''::tsvector`, config: 'simple' },
    filters: {
      status: (values) => anyOf(values, (value) => conditions[value] ?? sql`false`),
      overdue: (values) =>
        values.includes(true) && values.includes(false)
          ? sql`true`
          : values.includes(true)
            ? overdue(at)
            : sql`not ${overdue(at)}`,
    },
  });
};

/** Which loans a listing ranges over (all, or one borrower's), and the instant `overdue` is decided at. */
export interface LoanScope {
  borrowerId?: number;
  at: Date;
}

/** A loan with what deciding its renewal needs: whether its book is held, the borrower's category, the copy's kind and home. */
export async function findLoan(db: Db, params: { id: number }): Promise<LoanRecord | undefined> {
  const [loan] = await db
    .select({
      ...loanColumns,
      book_held: loanBookHeld.as('book_held'),
      patron_category_id: users.patronCategoryId,
      item_type_id: copies.itemTypeId,
      home_branch_id: copies.branchId,
      borrower_balance: sql<number>`coalesce((select ${accounts.balance} from ${accounts} where ${accounts.userId} = ${loans.borrowerId}), 0)`,
    })
    .from(loans)
    .innerJoin(users, eq(users.id, loans.borrowerId))
    .innerJoin(copies, eq(copies.id, loans.copyId))
    .where(eq(loans.id, params.id));
  return loan;
}

/** The terms a loan keeps (as decided when it was made or last renewed), with the rule that supplied each. */
export async function findLoanTerms(db: Db, params: { id: number }) {
  const [terms] = await db
    .select({
      loan_period: loans.loanPeriod,
      loan_period_unit: loans.loanPeriodUnit,
      renewals_allowed: loans.renewalsAllowed,
      fine_per_day: loans.finePerDay,
      grace_days: loans.graceDays,
      fine_cap: loans.fineCap,
      lost_after_days: loans.lostAfterDays,
      lost_charge: loans.lostCharge,
      floating: loans.floating,
      term_rules: loans.termRules,
    })
    .from(loans)
    .where(eq(loans.id, params.id));
  return terms;
}

/** One page of the listing and its total. */
export function listLoansPage(db: Db, listing: PagedListing, scope: LoanScope) {
  return readPage<Loan>(db, loanListing(scope.at), listing, scopeOf(scope));
}

/** Every item of the listing, streamed from a cursor. */
export function streamLoans(database: Database, listing: Listing, scope: LoanScope) {
  return readAll<Loan>(database, loanListing(scope.at), listing, scopeOf(scope));
}

/** Loans are few beside books (no counter): their totals are bounded counts. */
function scopeOf(scope: LoanScope): ListingScope {
  return { conditions: scope.borrowerId === undefined ? [] : [eq(loans.borrowerId, scope.borrowerId)] };
}
