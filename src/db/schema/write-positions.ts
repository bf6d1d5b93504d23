/**
 * @module Where each signed-in caller's last write reached in the primary's WAL, so that their reads go
 * only to a standby that has replayed it (docs/scaling.md, "Read-your-writes"). UNLOGGED (see the
 * migration): written on every write request, it costs no WAL, and losing it in a crash only sends reads
 * to any standby within the lag allowed.
 */
import { customType, integer, pgTable } from 'drizzle-orm/pg-core';

/** PostgreSQL's `pg_lsn`, a WAL position, read and written as its text (`16/B374D848`). */
const pgLsn = customType<{ data: string; driverData: string }>({ dataType: () => 'pg_lsn' });

export const writePositions = pgTable('write_positions', {
  /** The user who wrote (a user, not a token: the same person through a browser and a script). */
  userId: integer('user_id').primaryKey(),
  lsn: pgLsn('lsn').notNull(),
});
