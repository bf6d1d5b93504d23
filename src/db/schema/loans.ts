/** @module The `loans` table: every lending of a book, kept after its return as history. */
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { books } from './books.js';
import { copies } from './copies.js';
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
    /** The copy lent; with `book_id` it references the copies' (id, book_id), so it is a copy of the book. */
    copyId: integer('copy_id').notNull(),
    /** Times the loan was renewed (each moved `due_at` to a loan period from that day). */
    renewals: integer('renewals').notNull().default(0),
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
    index('loans_active_due_at_idx').on(t.dueAt).where(sql`${t.returnedAt} is null`),
    check('loans_due_after_borrowed', sql`${t.dueAt} > ${t.borrowedAt}`),
    check('loans_renewals_not_negative', sql`${t.renewals} >= 0`),
    check('loans_returned_after_borrowed', sql`${t.returnedAt} is null or ${t.returnedAt} >= ${t.borrowedAt}`),
  ],
);
