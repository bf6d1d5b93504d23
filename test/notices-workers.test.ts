/**
 * Exactly once between senders: two sender loops, each with its own transport and (on PostgreSQL) its own
 * connections to the database, as two server processes have, send 400 notices to one SMTP server that
 * defers the first 50 with a 4xx. Every notice arrives once, none twice, and every one ends `sent`. A
 * sender that stops mid-send leaves its notice to another once its lease runs out, and its late mark
 * changes nothing. PGlite, and PostgreSQL with DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../src/db/client.js';
import { claimNotices, markNoticeSent } from '../src/db/queries/notices.js';
import type { Clock } from '../src/domain/clock.js';
import { createLogger } from '../src/log.js';
import { sendDueNotices, sendNoticesPeriodically, smtpTransport } from '../src/notices/index.js';
import { NOTICE_LEASE_MS } from '../src/notices/sender.js';
import { addUser, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { fixedClock } from './support/clock.js';
import { startSmtpServer, type TestSmtpServer } from './support/smtp.js';

const NOTICES = 400;
const PATRONS = 20;
const DEFERRED = 50;

describe('two senders against one database', () => {
  let t: TestCatalogue;
  let second: Database;
  let smtp: TestSmtpServer;
  const clock: Clock = { now: () => new Date() };
  const log = createLogger({ enabled: false });

  beforeAll(async () => {
    t = await openTestCatalogue();
    // Another process's connections to the same database; PGlite is one process's, so there it is the same.
    second = t.database.target.kind === 'postgres' ? await openDatabase(t.database.target) : t.database;
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.stop();
    if (second !== t?.database) await second?.close();
    await t?.close();
  });

  it('send 400 notices, the first 50 deferred: each arrives exactly once', async () => {
    const patrons: number[] = [];
    for (let i = 0; i < PATRONS; i++) patrons.push((await addUser(t, `Busy Patron ${i}`)).id);
    await t.database.db.execute(sql`update users set email = 'patron' || id || '@patrons.example'
      where id = any(${sql.param(patrons)}::integer[])`);
    // One statement, 400 charges: the trigger queues their notices set-based, in the same transaction.
    await t.database.db.execute(sql`insert into account_entries (user_id, kind, amount, currency, reason)
      select (${sql.param(patrons)}::integer[])[1 + n % ${PATRONS}], 'manual', 100 + n, 'EUR', 'charge ' || n
      from generate_series(1, ${NOTICES}) n`);
    const [queued] = rowsOf<{ count: number }>(
      await t.database.db.execute(sql`select count(*)::int as count from notices where status = 'pending'`),
    );
    expect(queued?.count).toBe(NOTICES);

    smtp.deferNext(DEFERRED);
    const settings = {
      clock,
      libraryName: 'Busy Libraries',
      from: 'notices@busy.example',
      timeZone: 'UTC',
      batchSize: 25,
      idleMs: 20,
      retryFirstMs: 20,
      retryLongestMs: 100,
    };
    const transports = [smtpTransport(smtp.url), smtpTransport(smtp.url)];
    const stops = [
      sendNoticesPeriodically(t.database, transports[0] as ReturnType<typeof smtpTransport>, settings, log),
      sendNoticesPeriodically(second, transports[1] as ReturnType<typeof smtpTransport>, settings, log),
    ];
    try {
      await smtp.waitFor(NOTICES, 60_000);
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      for (const transport of transports) transport.close();
    }
    const ids = smtp.received.map((mail) => mail.parsed.messageId);
    expect(ids).toHaveLength(NOTICES);
    expect(new Set(ids).size).toBe(NOTICES);
    const rows = rowsOf<{ status: string; count: number; attempts: number }>(
      await t.database.db.execute(
        sql`select status, count(*)::int as count, sum(attempts)::int as attempts from notices group by status`,
      ),
    );
    // Every notice sent; the deferred ones took a second attempt each.
    expect(rows).toEqual([{ status: 'sent', count: NOTICES, attempts: NOTICES + DEFERRED }]);
  });

  it('a sender that stops mid-send leaves its notice to another once its lease runs out', async () => {
    const stopped = fixedClock('2031-01-01T00:00:00.000Z');
    const patron = await addUser(t, 'Lena Lease');
    await t.database.db.execute(sql`update users set email = 'lena@patrons.example' where id = ${patron.id}`);
    await t.database.db.execute(sql`insert into account_entries (user_id, kind, amount, currency, reason, created_at)
      values (${patron.id}, 'manual', 300, 'EUR', 'a lost card', ${stopped.now().toISOString()}::timestamptz)`);
    // Claimed, then never marked: its sender died mid-send.
    const [dead] = await claimNotices(t.database.db, { at: stopped.now(), leaseMs: NOTICE_LEASE_MS, limit: 10 });
    expect(dead?.attempts).toBe(1);

    const transport = smtpTransport(smtp.url);
    try {
      const settings = { clock: stopped, libraryName: 'Busy Libraries', from: 'notices@busy.example', timeZone: 'UTC' };
      stopped.advance(NOTICE_LEASE_MS - 1);
      expect((await sendDueNotices(second.db, transport, settings)).claimed).toBe(0);
      stopped.advance(1);
      expect(await sendDueNotices(second.db, transport, settings)).toMatchObject({ claimed: 1, sent: 1 });
    } finally {
      transport.close();
    }
    // The dead sender's late mark changes nothing: the claim is no longer its own.
    expect(await markNoticeSent(t.database.db, dead as NonNullable<typeof dead>, stopped.now())).toBe(false);
    const mails = smtp.received.filter((mail) => mail.rcptTo.includes('lena@patrons.example'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.parsed.messageId).toMatch(new RegExp(`^<notice-${dead?.id}\\.20310101000000000@busy\\.example>$`));
  });
});
