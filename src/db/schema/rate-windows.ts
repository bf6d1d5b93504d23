/**
 * @module The `rate_windows` table: each caller's spending per kind of expensive work in the current window,
 * shared by every process on the database. UNLOGGED (see its migration): a crash may forget the current
 * minute's counts, which costs a caller nothing but a fresh quota, and no write of it goes to the WAL.
 */
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const rateWindows = pgTable(
  'rate_windows',
  {
    /** `user:<id>`, or `address:<ip>` for an anonymous caller. */
    caller: text('caller').notNull(),
    /** `search`, `stream` or `write` (`RateKind`). */
    kind: text('kind').notNull(),
    /** When the window turns, by the database's clock, the one clock every process shares. */
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Requests counted in the window, refused ones included. */
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.caller, t.kind] })],
);
