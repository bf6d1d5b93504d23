/**
 * @module Each signed-in caller's last write position in the primary's WAL (`write_positions`): noted after
 * their write, read before their read. Both run on the primary, and only when standbys are configured.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { prepared } from '../prepared.js';
import { writePositions } from '../schema/index.js';

/**
 * Notes where the WAL stands now, after the caller's write committed. The insert position, not the flushed
 * one: it is at or past the end of every commit record made so far, the write's own included.
 */
export async function noteWritePosition(db: Db, params: { userId: number }): Promise<void> {
  const statement = prepared(db, 'note_write_position', (db) =>
    db
      .insert(writePositions)
      .values({ userId: sql.placeholder('userId'), lsn: sql`pg_current_wal_insert_lsn()` })
      // Two writes of one caller's finishing at once must not leave the earlier position noted last.
      .onConflictDoUpdate({
        target: writePositions.userId,
        set: { lsn: sql`greatest(${writePositions.lsn}, excluded.lsn)` },
      })
      .prepare('note_write_position'),
  );
  await statement.execute(params);
}

/** The WAL position of the caller's last write, `undefined` when none is known. */
export async function findWritePosition(db: Db, params: { userId: number }): Promise<string | undefined> {
  const statement = prepared(db, 'find_write_position', (db) =>
    db
      .select({ lsn: writePositions.lsn })
      .from(writePositions)
      .where(eq(writePositions.userId, sql.placeholder('userId')))
      .prepare('find_write_position'),
  );
  const [row] = await statement.execute(params);
  return row?.lsn;
}
