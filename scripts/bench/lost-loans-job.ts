/**
 * @module The lost-items job in a process of its own, measuring itself: it opens the database as the CLI
 * does, settles, reads its idle RSS, resets the kernel's peak (VmHWM), runs `declareLostLoans` once at
 * LOST_LOANS_AT, and prints one JSON line of its figures. scripts/bench/lost-loans.ts starts it.
 *
 *   DATABASE_URL=postgres://… LOST_LOANS_AT=2026-12-01T00:00:00Z node --import tsx scripts/bench/lost-loans-job.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { declareLostLoans } from '../../src/db/queries/lost-loans.js';

const config = loadConfig();
const at = new Date(process.env.LOST_LOANS_AT ?? '');
if (Number.isNaN(at.getTime())) throw new Error('LOST_LOANS_AT must be an instant');
const database = await openDatabase(config.database);
try {
  // The first statements load the code paths the job takes; then the process rests before it is measured.
  await database.db.execute(sql`select 1`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = memory().rss;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not permitted: the peak is then the process's whole life's, an upper bound.
  }
  let sampled = idle;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memory().rss);
  }, 20);
  const started = performance.now();
  const declared = await declareLostLoans(database.db, { at, timeZone: config.timeZone, currency: config.currency });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peak = Math.max(sampled, memory().hwm);
  process.stdout.write(`${JSON.stringify({ ...declared, seconds, idle, peak })}\n`);
} finally {
  await database.close();
}

/** Resident memory now and at its peak, in bytes (Linux /proc). */
function memory(): { rss: number; hwm: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}
