/**
 * @module The notices sender in a process of its own, measuring itself: it opens the database as the server
 * does, settles, reads its idle RSS, resets the kernel's peak (VmHWM), then sends rounds of due notices (the
 * server's sender, `sendDueNotices`, over the pooled SMTP transport of CATALOGUE_SMTP_URL) until
 * NOTICES_SEND have been sent, and prints one JSON line of its figures. scripts/bench/notices.ts starts it.
 *
 *   DATABASE_URL=postgres://… CATALOGUE_SMTP_URL=smtp://127.0.0.1:2525 NOTICES_SEND=10000 \
 *     node --import tsx scripts/bench/notices-sender.ts
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { systemClock } from '../../src/domain/clock.js';
import { sendDueNotices, smtpTransport } from '../../src/notices/index.js';
import { measureItself } from './processes.js';

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
  // The first statement loads the code paths the sender takes; then the process rests before it is measured.
  const figures = await measureItself(
    () => database.db.execute(sql`select 1`),
    async () => {
      const totals = { rounds: 0, sent: 0, retried: 0, failed: 0, skipped: 0 };
      while (totals.sent < toSend) {
        const round = await sendDueNotices(database.db, transport, settings);
        if (round.claimed === 0) break;
        totals.rounds++;
        totals.sent += round.sent;
        totals.retried += round.retried;
        totals.failed += round.failed;
        totals.skipped += round.skipped;
      }
      return totals;
    },
  );
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  transport.close();
  await database.close();
}
