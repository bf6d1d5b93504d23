/**
 * @module The notices sender in a process of its own, measuring itself: it opens the database as the server
 * does, settles, reads its idle RSS, resets the kernel's peak (VmHWM), then sends rounds of due notices (the
 * server's sender, `sendDueNotices`, over the pooled SMTP transport of CATALOGUE_SMTP_URL) until
 * NOTICES_SEND have been sent, and prints one JSON line of its figures. scripts/bench/notices.ts starts it.
 *
 *   DATABASE_URL=postgres://… CATALOGUE_SMTP_URL=smtp://127.0.0.1:2525 NOTICES_SEND=10000 \
 *     node --import tsx scripts/bench/notices-sender.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { systemClock } from '../../src/domain/clock.js';
import { sendDueNotices, smtpTransport } from '../../src/notices/index.js';

const config = loadConfig();
const toSend = Number(process.env.NOTICES_SEND);
if (!Number.isInteger(toSend) || toSend < 1) throw new Error('NOTICES_SEND must be a whole number of notices');
const smtpUrl = config.notices.smtpUrl;
if (!smtpUrl) throw new Error('CATALOGUE_SMTP_URL must name the SMTP server');
const database = await openDatabase(config.database);
const transport = smtpTransport(smtpUrl);
const settings = {
  clock: systemClock,
  libraryName: config.notices.libraryName,
  from: config.notices.from,
  timeZone: config.timeZone,
};
try {
  // The first statements load the code paths the sender takes; then the process rests before it is measured.
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
  const totals = { rounds: 0, sent: 0, retried: 0, failed: 0, skipped: 0 };
  const started = performance.now();
  while (totals.sent < toSend) {
    const round = await sendDueNotices(database.db, transport, settings);
    if (round.claimed === 0) break;
    totals.rounds++;
    totals.sent += round.sent;
    totals.retried += round.retried;
    totals.failed += round.failed;
    totals.skipped += round.skipped;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peak = Math.max(sampled, memory().hwm);
  process.stdout.write(`${JSON.stringify({ ...totals, seconds, idle, peak })}\n`);
} finally {
  transport.close();
  await database.close();
}

/** Resident memory now and at its peak, in bytes (Linux /proc). */
function memory(): { rss: number; hwm: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}
