/**
 * @module The change feed's tables: one row per change to a book, an author or a loan, written by
 * statement-level triggers in the writing transaction (see the `changes` migration), and the feed's
 * horizon, how far back it still reaches after retention pruned older events.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every change, numbered in commit order: the trigger that writes a transaction's events first takes a
 * transaction-scoped advisory lock held until commit, so no transaction can take a number below one that
 * a reader has already been shown (docs/api.md, "Change feed").
 */
export const changes = pgTable(
  'changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `book.created`, `author.deleted`, `loan.started`, … */
    type: text('type').notNull(),
    /** The book's, author's, loan's, copy's or hold's id; a branch's for its closures' events. */
    resourceId: integer('resource_id').notNull(),
    /** For a loan's events, whose loan it is: who besides librarians may read the event. */
    borrowerId: integer('borrower_id'),
    /** When the change was recorded (the clock at the end of the writing statement). */
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'changes_type_known',
      sql`${t.type} in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended', 'loan.renewed', 'copy.added', 'copy.withdrawn', 'copy.sent', 'copy.received', 'hold.placed', 'hold.in_transit', 'hold.ready', 'hold.ended', 'branch.closed', 'branch.reopened')`,
    ),
    // A member's feed reads the catalogue's events and their own loans' in id order.
    index('changes_borrower_id_id_idx').on(t.borrowerId, t.id),
  ],
);

/** One row: the feed begins after `prunedThrough` (events up to it were removed by retention). */
export const changesHorizon = pgTable(
  'changes_horizon',
  {
    only: boolean('only').primaryKey().default(true),
    prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull(),
    /** Every event recorded since this moment is still in the feed. */
    beginsAt: timestamp('begins_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('changes_horizon_one_row', sql`${t.only}`)],
);
