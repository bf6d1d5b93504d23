/**
 * @module My account's reads: the holder, their active loans, their open holds and their recent charges, one
 * statement each (the route runs them side by side), whatever the number of loans or holds.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { CHARGE_KINDS } from '../../domain/account.js';
import { money } from '../../domain/money.js';
import type { AccountHolder, CurrentLoan, OpenHold, RecentCharge } from '../../domain/my-account.js';
import type { Db } from '../client.js';
import { accountEntries, accounts, books, branches, copies, holds, loans, users } from '../schema/index.js';
import { type EntryRow, entryColumns, entryOf } from './accounts.js';
import { holdColumns, holdStatus, loanBookHeld, loanColumns } from './circulation-columns.js';

/** The user with their home branch's name and their balance (nothing owed, in `currency`, before any entry). */
export async function findAccountHolder(
  db: Db,
  params: { userId: number; currency: string },
): Promise<AccountHolder | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      role: users.role,
      patron_category_id: users.patronCategoryId,
      home_branch_id: users.homeBranchId,
      home_branch_name: branches.name,
      balance: accounts.balance,
      currency: accounts.currency,
    })
    .from(users)
    .innerJoin(branches, eq(branches.id, users.homeBranchId))
    .leftJoin(accounts, eq(accounts.userId, users.id))
    .where(eq(users.id, params.userId));
  if (!row) return undefined;
  const { balance, currency, ...holder } = row;
  return { ...holder, balance: money(balance ?? 0, currency ?? params.currency) };
}

/**
 * The borrower's active loans (overdue and lost ones too), due soonest first, each with the facts its
 * renewal is decided on (as `findLoan` reads them), its book's title and its copy's barcode.
 */
export function listCurrentLoans(db: Db, params: { borrowerId: number }): Promise<CurrentLoan[]> {
  return db
    .select({
      ...loanColumns,
      book_held: loanBookHeld.as('book_held'),
      patron_category_id: users.patronCategoryId,
      item_type_id: copies.itemTypeId,
      home_branch_id: copies.branchId,
      borrower_balance: sql<number>`coalesce((select ${accounts.balance} from ${accounts} where ${accounts.userId} = ${loans.borrowerId}), 0)`,
      title: books.title,
      barcode: copies.barcode,
    })
    .from(loans)
    .innerJoin(users, eq(users.id, loans.borrowerId))
    .innerJoin(copies, eq(copies.id, loans.copyId))
    .innerJoin(books, eq(books.id, loans.bookId))
    .where(and(eq(loans.borrowerId, params.borrowerId), isNull(loans.returnedAt)))
    .orderBy(asc(loans.dueAt), asc(loans.id));
}

/**
 * The borrower's open holds as they stand at `at` (a ready hold whose time ran out has ended), oldest first,
 * each with its place in its book's queue (`holdColumns`), its book's title and its pickup branch's name.
 */
export function listOpenHolds(db: Db, params: { borrowerId: number; at: Date }): Promise<OpenHold[]> {
  return db
    .select({ ...holdColumns(params.at), title: books.title, pickup_branch_name: branches.name })
    .from(holds)
    .innerJoin(books, eq(books.id, holds.bookId))
    .innerJoin(branches, eq(branches.id, holds.pickupBranchId))
    .where(
      and(
        eq(holds.borrowerId, params.borrowerId),
        sql`(${holdStatus(params.at)}) in ('waiting', 'in_transit', 'ready')`,
      ),
    )
    .orderBy(asc(holds.placedAt), asc(holds.id));
}

/** The user's newest charges (not payments or waivers), at most `limit`, and whether older ones exist. */
export async function listRecentCharges(
  db: Db,
  params: { userId: number; limit: number },
): Promise<{ entries: RecentCharge[]; more: boolean }> {
  const rows = await db
    .select({ ...entryColumns, title: books.title })
    .from(accountEntries)
    .leftJoin(loans, eq(loans.id, accountEntries.loanId))
    .leftJoin(books, eq(books.id, loans.bookId))
    .where(and(eq(accountEntries.userId, params.userId), inArray(accountEntries.kind, [...CHARGE_KINDS])))
    .orderBy(desc(accountEntries.id))
    .limit(params.limit + 1);
  const entries = rows.slice(0, params.limit).map(({ title, ...row }) => ({ ...entryOf(row as EntryRow), title }));
  return { entries, more: rows.length > params.limit };
}
