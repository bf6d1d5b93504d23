/** @module The `loans` table: every lending of a book, kept after its return as history. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { books } from './books.js';
import { copies } from './copies.js';
import { branches } from './lending-lists.js';
import { PERIOD_UNITS } from './loan-rules.js';
import { users } from './users.js';

export const loans = pgTable(
  'loans',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // RESTRICT: a book or user with loan history cannot disappear from under it.
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'restrict' }),
    borrowerId: integer('borrower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    borrowedAt: timestamp('borrowed_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    /**
     * When the loan was declared lost (`lost_after_days` past due, by the lost-items job). It stays active
     * until the copy comes back: a return is still taken, and changes no charge.
     */
    lostAt: timestamp('lost_at', { withTimezone: true }),
    /** The copy lent; with `book_id` it references the copies' (id, book_id), so it is a copy of the book. */
    copyId: integer('copy_id').notNull(),
    /** Times the loan was renewed (each moved `due_at` to a loan period from that day). */
    renewals: integer('renewals').notNull().default(0),
    /** Where it was lent: the librarian's desk, or the copy's home branch for a member's own borrow. */
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    // The terms the lending rules gave it, kept so that changing a rule never rewrites a loan made; a
    // renewal decides them again. `NULL` for a limit is "none".
    loanPeriod: integer('loan_period').notNull(),
    loanPeriodUnit: text('loan_period_unit', { enum: PERIOD_UNITS }).notNull(),
    renewalsAllowed: integer('renewals_allowed').notNull(),
    finePerDay: integer('fine_per_day').notNull(),
    graceDays: integer('grace_days').notNull(),
    fineCap: integer('fine_cap'),
    lostAfterDays: integer('lost_after_days'),
    lostCharge: integer('lost_charge').notNull(),
    floating: boolean('floating').notNull(),
    /** The rule that supplied each term, by term name (`{"loan_period": 7, …}`). */
    termRules: jsonb('term_rules').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    foreignKey({ columns: [t.copyId, t.bookId], foreignColumns: [copies.id, copies.bookId] }).onDelete('restrict'),
    // A copy is never lent twice: at most one active loan per copy, however many requests race.
    uniqueIndex('loans_one_active_per_copy_idx').on(t.copyId).where(sql`${t.returnedAt} is null`),
    // Nobody has two copies of one book at once.
    uniqueIndex('loans_one_active_per_borrower_and_book_idx')
      .on(t.bookId, t.borrowerId)
      .where(sql`${t.returnedAt} is null`),
    index('loans_borrower_id_idx').on(t.borrowerId, t.id),
    index('loans_book_id_idx').on(t.bookId, t.id),
    // The branches' RESTRICT check: deleting a branch finds its loans without reading them all.
    index('loans_branch_id_idx').on(t.branchId),
    index('loans_active_due_at_idx').on(t.dueAt).where(sql`${t.returnedAt} is null`),
    // The lost-items job walks the active loans with a limit, by id, in batches. `lost_at` is in no index (nor
    // any predicate), so that stamping it is a HOT update (docs/performance/lost-loans.md).
    index('loans_may_be_lost_idx').on(t.id).where(sql`${t.returnedAt} is null and ${t.lostAfterDays} is not null`),
    check('loans_due_after_borrowed', sql`${t.dueAt} > ${t.borrowedAt}`),
    check('loans_renewals_not_negative', sql`${t.renewals} >= 0`),
    check('loans_returned_after_borrowed', sql`${t.returnedAt} is null or ${t.returnedAt} >= ${t.borrowedAt}`),
    check('loans_lost_after_due', sql`${t.lostAt} is null or ${t.lostAt} > ${t.dueAt}`),
  ],
);
