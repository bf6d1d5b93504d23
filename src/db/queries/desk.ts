/**
 * @module The desk's look-ups: a patron by their library card, a copy by its barcode, the loan a copy is
 * out on. Each is one indexed read (`users_card_number_idx`, `copies_barcode_idx`,
 * `loans_one_active_per_copy_idx`); lending and returning then happen in circulation's own transactions.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Patron, ScannedCopy } from '../../domain/desk.js';
import { money } from '../../domain/money.js';
import type { LoanFacts } from '../../domain/policy.js';
import type { Db } from '../client.js';
import { accounts, books, copies, loans, users } from '../schema/index.js';

/** The patron whose card this is, with their loans out and what they owe; `undefined` for no such card. */
export async function findPatronByCard(
  db: Db,
  params: { cardNumber: string; currency: string },
): Promise<Patron | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      card_number: sql<string>`${users.cardNumber}`,
      loans_out: sql<number>`(select count(*)::int from ${loans} as "out" where "out"."borrower_id" = ${users}."id" and "out"."returned_at" is null)`,
      balance: sql<number>`coalesce((select ${accounts.balance} from ${accounts} where ${accounts.userId} = ${users}."id"), 0)`,
    })
    .from(users)
    .where(eq(users.cardNumber, params.cardNumber));
  if (!row) return undefined;
  return { ...row, loans_out: Number(row.loans_out), balance: money(Number(row.balance), params.currency) };
}

/** The copy with this barcode and its book's title; `undefined` for no such barcode. */
export async function findCopyByBarcode(db: Db, params: { barcode: string }): Promise<ScannedCopy | undefined> {
  const [row] = await db
    .select({
      id: copies.id,
      book_id: copies.bookId,
      barcode: sql<string>`${copies.barcode}`,
      title: books.title,
      author_id: books.authorId,
      withdrawn: sql<boolean>`${copies.withdrawnAt} is not null`,
      transit_to_branch_id: copies.transitToBranchId,
    })
    .from(copies)
    .innerJoin(books, eq(books.id, copies.bookId))
    .where(eq(copies.barcode, params.barcode));
  return row;
}

/** The active loan of a copy, if it is out: what a check-in returns. */
export async function findActiveLoanOfCopy(db: Db, params: { copyId: number }): Promise<LoanFacts | undefined> {
  const [row] = await db
    .select({ id: loans.id, borrower_id: loans.borrowerId, returned_at: sql<string | null>`null` })
    .from(loans)
    .where(and(eq(loans.copyId, params.copyId), sql`${loans.returnedAt} is null`));
  return row;
}
