/**
 * @module The `holds` table: a user's place in a book's queue. A hold waits, is `in_transit` while the copy
 * given to it travels to its pickup branch, becomes `ready` when a copy is set aside for it there (until
 * `ready_until`), and ends `fulfilled` (borrowed), `cancelled` or `expired`.
 */
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { books } from './books.js';
import { copies } from './copies.js';
import { branches } from './lending-lists.js';
import { loans } from './loans.js';
import { users } from './users.js';

export const HOLD_STATUSES = ['waiting', 'in_transit', 'ready', 'fulfilled', 'cancelled', 'expired'] as const;

export const holds = pgTable(
  'holds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // RESTRICT: holds are circulation history, as loans are.
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'restrict' }),
    borrowerId: integer('borrower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status', { enum: HOLD_STATUSES }).notNull().default('waiting'),
    /** Where the borrower collects the copy: their home branch unless they named another. */
    pickupBranchId: integer('pickup_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    /** The copy given to it, from `in_transit` (on its way) or `ready` (set aside) on. */
    copyId: integer('copy_id'),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    readyUntil: timestamp('ready_until', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The loan that fulfilled it. */
    loanId: integer('loan_id').references(() => loans.id, { onDelete: 'restrict' }),
  },
  (t) => [
    foreignKey({ columns: [t.copyId, t.bookId], foreignColumns: [copies.id, copies.bookId] }).onDelete('restrict'),
    // One open hold per user and book, however many requests race.
    uniqueIndex('holds_one_open_per_borrower_idx')
      .on(t.bookId, t.borrowerId)
      .where(sql`${t.status} in ('waiting', 'in_transit', 'ready')`),
    // A copy is given to one hold at a time, on its way or set aside.
    uniqueIndex('holds_one_ready_per_copy_idx').on(t.copyId).where(sql`${t.status} in ('in_transit', 'ready')`),
    // The queue, first come first served.
    index('holds_queue_idx')
      .on(t.bookId, t.placedAt, t.id)
      .where(sql`${t.status} in ('waiting', 'in_transit', 'ready')`),
    // The lists' RESTRICT checks: deleting a branch finds the holds collected there without reading them all.
    index('holds_pickup_branch_id_idx').on(t.pickupBranchId),
    index('holds_borrower_id_idx').on(t.borrowerId, t.id),
    index('holds_book_id_idx').on(t.bookId, t.id),
    index('holds_ready_until_idx').on(t.readyUntil).where(sql`${t.status} = 'ready'`),
    check(
      'holds_status_known',
      sql`${t.status} in ('waiting', 'in_transit', 'ready', 'fulfilled', 'cancelled', 'expired')`,
    ),
    check(
      'holds_ready_has_copy',
      sql`${t.status} <> 'ready' or (${t.copyId} is not null and ${t.readyUntil} is not null and ${t.readyAt} is not null)`,
    ),
    check(
      'holds_in_transit_has_copy',
      sql`${t.status} <> 'in_transit' or (${t.copyId} is not null and ${t.readyAt} is null and ${t.readyUntil} is null)`,
    ),
    check('holds_ended_when_closed', sql`(${t.status} in ('waiting', 'in_transit', 'ready')) = (${t.endedAt} is null)`),
    check('holds_fulfilled_by_loan', sql`(${t.status} = 'fulfilled') = (${t.loanId} is not null)`),
  ],
);
