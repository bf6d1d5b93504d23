/**
 * @module A user's account with the library: `account_entries`, every charge, payment and waiver, never
 * changed once written (but for a charge's `waived`), and `accounts`, each user's balance, kept by a
 * statement-level trigger on the entries (`drizzle/functions/account_entries_settle.sql`): writers only
 * insert entries, and the balance's CHECK refuses what would take it below zero.
 */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { loans } from './loans.js';
import { users } from './users.js';

/** What an entry is: three charges (add to the balance), and two that take from it. */
export const ACCOUNT_ENTRY_KINDS = ['overdue_fine', 'lost_item', 'manual', 'payment', 'waiver'] as const;

export const accountEntries = pgTable(
  'account_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // RESTRICT: an account's history is kept, as loans are.
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ACCOUNT_ENTRY_KINDS }).notNull(),
    /** Minor units of `currency`, always positive: the kind says whether it adds or takes away. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** The loan an overdue fine or a lost item's charge is for. */
    loanId: integer('loan_id').references(() => loans.id, { onDelete: 'restrict' }),
    /** The charge a waiver waives (of the same user: the trigger checks). */
    chargeId: integer('charge_id').references((): AnyPgColumn => accountEntries.id, { onDelete: 'restrict' }),
    /** Why: required for a waiver and a manual charge, optional (a payment's note) otherwise. */
    reason: text('reason'),
    /** The librarian who recorded it; `NULL` for what the catalogue charged itself (a fine on return). */
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Of a charge, how much waivers took off it: the trigger adds each waiver, the CHECK keeps it ≤ amount. */
    waived: integer('waived').notNull().default(0),
  },
  (t) => [
    // A loan is fined once and charged lost once, however many returns or sweeps race.
    uniqueIndex('account_entries_once_per_loan_idx')
      .on(t.loanId, t.kind)
      .where(sql`${t.kind} in ('overdue_fine', 'lost_item')`),
    index('account_entries_user_id_id_idx').on(t.userId, t.id),
    check('account_entries_kind_known', sql`${t.kind} in ('overdue_fine', 'lost_item', 'manual', 'payment', 'waiver')`),
    check('account_entries_amount_positive', sql`${t.amount} > 0`),
    check('account_entries_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check(
      'account_entries_reason_given',
      sql`${t.kind} not in ('waiver', 'manual') or (${t.reason} is not null and btrim(${t.reason}) <> '')`,
    ),
    check('account_entries_reason_length', sql`char_length(${t.reason}) <= 500`),
    check(
      'account_entries_loan_charged',
      sql`${t.kind} not in ('overdue_fine', 'lost_item') or ${t.loanId} is not null`,
    ),
    check('account_entries_waiver_of_charge', sql`(${t.kind} = 'waiver') = (${t.chargeId} is not null)`),
    // Only charges are waived, and never beyond their amount.
    check(
      'account_entries_waived_within_charge',
      sql`${t.waived} >= 0 and ${t.waived} <= ${t.amount} and (${t.waived} = 0 or ${t.kind} in ('overdue_fine', 'lost_item', 'manual'))`,
    ),
  ],
);

export const accounts = pgTable(
  'accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** The currency of its first entry; every later entry must be in it. */
    currency: text('currency').notNull(),
    /** What the user owes, in minor units: charges less payments and waivers. */
    balance: integer('balance').notNull().default(0),
  },
  (t) => [
    check('accounts_balance_not_negative', sql`${t.balance} >= 0`),
    check('accounts_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);
