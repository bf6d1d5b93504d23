/**
 * @module The lost-items job in a process of its own, measuring itself: it opens the database as the CLI
 * does, settles, reads its idle RSS, resets the kernel's peak (VmHWM), runs `declareLostLoans` once at
 * LOST_LOANS_AT, and prints one JSON line of its figures. scripts/bench/lost-loans.ts starts it.
 *
 *   DATABASE_URL=postgres://… LOST_LOANS_AT=2026-12-01T00:00:00Z node --import tsx scripts/bench/lost-loans-job.ts
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { declareLostLoans } from '../../src/db/queries/lost-loans.js';
import { measureItself } from './processes.js';

const config = loadConfig();
const at = new Date(process.env.LOST_LOANS_AT ?? '');
if (Number.isNaN(at.getTime())) throw new Error('LOST_LOANS_AT must be an instant');
const database = await openDatabase(config.database);
try {
  // The first statement loads the code paths the job takes; then the process rests before it is measured.
  const figures = await measureItself(
    () => database.db.execute(sql`select 1`),
    () => declareLostLoans(database.db, { at, timeZone: config.timeZone, currency: config.currency }),
  );
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await database.close();
}
