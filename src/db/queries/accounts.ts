/**
 * @module Accounts: a user's balance and their history of entries, and recording an entry. Writers only insert
 * entries; the balance, a charge's waived amount and their CHECKs are the database's (`account_entries_settle`).
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import {
  type Account,
  type AccountEntry,
  type AccountEntryKind,
  exceedsBalance,
  exceedsCharge,
  unwaived,
} from '../../domain/account.js';
import { NotFound, UnprocessableEntity } from '../../domain/errors.js';
import { money } from '../../domain/money.js';
import type { Db } from '../client.js';
import { constraintViolation } from '../errors.js';
import { accountEntries, accounts } from '../schema/index.js';
import { businessTime, isoTimestamp } from './sql.js';

export const entryColumns = {
  id: accountEntries.id,
  user_id: accountEntries.userId,
  kind: accountEntries.kind,
  amount: accountEntries.amount,
  currency: accountEntries.currency,
  loan_id: accountEntries.loanId,
  charge_id: accountEntries.chargeId,
  reason: accountEntries.reason,
  recorded_by: accountEntries.recordedBy,
  created_at: isoTimestamp(accountEntries.createdAt).as('created_at'),
  waived: accountEntries.waived,
};

export type EntryRow = { amount: number; currency: string; waived: number } & Omit<AccountEntry, 'amount' | 'waived'>;

export function entryOf(row: EntryRow): AccountEntry {
  const { currency, amount, waived, ...rest } = row;
  return { ...rest, amount: money(amount, currency), waived: money(waived, currency) };
}

/** A user's balance: nothing owed, in the library's currency, before their first entry. */
export async function findAccount(db: Db, params: { userId: number; currency: string }): Promise<Account> {
  const [row] = await db
    .select({ balance: accounts.balance, currency: accounts.currency })
    .from(accounts)
    .where(eq(accounts.userId, params.userId));
  return { user_id: params.userId, balance: money(row?.balance ?? 0, row?.currency ?? params.currency) };
}

/**
 * A page of a user's entries, newest first: the first `limit`, or those before the entry `before`. One more
 * is read to know whether another page follows.
 */
export async function listAccountEntries(
  db: Db,
  params: { userId: number; before?: number | undefined; limit: number; kind?: AccountEntryKind },
): Promise<{ entries: AccountEntry[]; more: boolean }> {
  const rows = await db
    .select(entryColumns)
    .from(accountEntries)
    .where(
      and(
        eq(accountEntries.userId, params.userId),
        params.before === undefined ? undefined : lt(accountEntries.id, params.before),
        params.kind === undefined ? undefined : eq(accountEntries.kind, params.kind),
      ),
    )
    .orderBy(desc(accountEntries.id))
    .limit(params.limit + 1);
  return { entries: rows.slice(0, params.limit).map(entryOf), more: rows.length > params.limit };
}

/** One entry of a user's account; `undefined` when it is not theirs or does not exist. */
export async function findAccountEntry(db: Db, params: { userId: number; id: number }) {
  const [row] = await db
    .select(entryColumns)
    .from(accountEntries)
    .where(and(eq(accountEntries.id, params.id), eq(accountEntries.userId, params.userId)));
  return row && entryOf(row);
}

/** What a librarian records: a payment, a waiver of a charge, or a manual charge. */
export interface RecordEntryParams {
  userId: number;
  kind: 'payment' | 'waiver' | 'manual';
  /** Minor units, more than 0. */
  amount: number;
  currency: string;
  chargeId?: number | undefined;
  reason?: string | undefined;
  recordedBy: number;
  /** Business time. */
  at: Date;
}

/**
 * Records an entry: one INSERT, whose statement trigger moves the balance (and a waived charge's `waived`).
 * A payment or waiver beyond the balance, or a waiver beyond what is left of its charge, is refused by the
 * database's CHECKs, taking turns on the account's row with every other writer: 422 with the amounts read
 * after the refusal, and nothing recorded.
 */
export async function recordAccountEntry(db: Db, params: RecordEntryParams): Promise<AccountEntry> {
  try {
    const [row] = await db
      .insert(accountEntries)
      .values({
        userId: params.userId,
        kind: params.kind,
        amount: params.amount,
        currency: params.currency,
        chargeId: params.chargeId ?? null,
        reason: params.reason ?? null,
        recordedBy: params.recordedBy,
        createdAt: businessTime(params.at),
      })
      .returning(entryColumns);
    return entryOf(row as EntryRow);
  } catch (error) {
    throw await refusal(db, params, error);
  }
}

async function refusal(db: Db, params: RecordEntryParams, error: unknown): Promise<unknown> {
  const violation = constraintViolation(error);
  const amount = money(params.amount, params.currency);
  switch (violation?.constraint) {
    case 'accounts_balance_not_negative': {
      const { balance } = await findAccount(db, params);
      return exceedsBalance(params.kind === 'waiver' ? 'waiver' : 'payment', amount, balance);
    }
    case 'account_entries_waived_within_charge': {
      const charge = await findAccountEntry(db, { userId: params.userId, id: params.chargeId ?? 0 });
      return charge ? exceedsCharge(amount, unwaived(charge), charge.id) : error;
    }
    case 'account_entries_currency_of_account':
      return new UnprocessableEntity(`this account is kept in another currency than ${params.currency}`, {
        currency: 'is not the account\u2019s',
      });
    case 'account_entries_user_id_users_id_fk':
      return new NotFound(`user ${params.userId} not found`);
    default:
      return error;
  }
}

/** The charge an overdue fine makes on a loan's return; at most one per loan (the unique index). */
export interface OverdueFineCharge {
  userId: number;
  loanId: number;
  amount: number;
  currency: string;
  at: Date;
}

/**
 * Charges a loan's overdue fine, once: a loan already fined (a lost loan fined when declared lost, then
 * returned) is left as it is.
 */
export async function chargeOverdueFine(db: Db, charge: OverdueFineCharge): Promise<void> {
  await db
    .insert(accountEntries)
    .values({
      userId: charge.userId,
      kind: 'overdue_fine',
      amount: charge.amount,
      currency: charge.currency,
      loanId: charge.loanId,
      createdAt: businessTime(charge.at),
    })
    .onConflictDoNothing({
      target: [accountEntries.loanId, accountEntries.kind],
      where: sql`${accountEntries.kind} in ('overdue_fine', 'lost_item')`,
    });
}
