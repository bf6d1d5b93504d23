/**
 * @module The `branch_closures` table: the dates a branch is closed although its weekday is open (a holiday,
 * an emergency). Due dates move off them and fines do not count them (`domain/calendar.ts`).
 */
import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './lending-lists.js';

export const branchClosures = pgTable(
  'branch_closures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // CASCADE: a branch deleted (nothing names it) takes its calendar with it.
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'cascade' }),
    /** The local date, in the library's time zone, the branch is closed. */
    date: date('date', { mode: 'string' }).notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One closure per branch and date; also the index a branch's calendar is read by, in date order.
    uniqueIndex('branch_closures_branch_id_date_idx').on(t.branchId, t.date),
    check('branch_closures_reason_length', sql`char_length(${t.reason}) <= 200`),
  ],
);
