/**
 * Exactly once between senders: two sender loops, each with its own transport and (on PostgreSQL) its own
 * connections to the database, as two server processes have, send 400 notices to one SMTP server that
 * defers the first 50 with a 4xx. Every notice arrives once, none twice, and every one ends `sent`. A
 * sender that stops mid-send leaves its notice to another once its lease runs out, and its late mark
 * changes nothing. At a library's scale: 1,000 loans due soon, queued by the sweep, sent by two senders to
 * a server that defers the first 100, each to its borrower exactly once. PGlite, and PostgreSQL with
 * DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../src/db/client.js';
import { claimNotices, markNoticeSent, queueDueNotices } from '../src/db/queries/notices.js';
import type { Clock } from '../src/domain/clock.js';
import { createLogger } from '../src/log.js';
import { sendDueNotices, sendNoticesPeriodically, smtpTransport } from '../src/notices/index.js';
import { NOTICE_LEASE_MS } from '../src/notices/sender.js';
import { addAuthor, addBook, addUser, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { DAY_MS, fixedClock } from './support/clock.js';
import { startSmtpServer, type TestSmtpServer } from './support/smtp.js';

const NOTICES = 400;
const PATRONS = 20;
const DEFERRED = 50;
/** The library's scale: loans due soon, over books of this many copies each, each copy lent to another patron. */
const DUE_SOON = 1_000;
const COPIES_PER_BOOK = 20;
const DUE_SOON_DEFERRED = 100;

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

  it('1,000 due soon notices, two senders, the first 100 deferred: each arrives at its borrower exactly once', async () => {
    const now = new Date();
    const borrowers: number[] = [];
    for (let i = 0; i < COPIES_PER_BOOK; i++) borrowers.push((await addUser(t, `Due Patron ${i}`)).id);
    await t.database.db.execute(sql`update users set email = 'due' || id || '@patrons.example'
      where id = any(${sql.param(borrowers)}::integer[])`);
    const author = await addAuthor(t, 'Ada Duesoon');
    const books: number[] = [];
    for (let i = 0; i < DUE_SOON / COPIES_PER_BOOK; i++) books.push(await addBook(t, `Due Soon ${i}`, 2001, author));
    // Loans as a borrow writes them, a copy each, lent 12 days ago for 14, each of a book's copies to another
    // borrower: in SQL, for speed. The sweep then queues their notices, as it does hourly.
    const [before] = rowsOf<{ last: number }>(
      await t.database.db.execute(sql`select coalesce(max(id), 0)::int as last from copies`),
    );
    await t.database.db.execute(sql`insert into copies (book_id, branch_id, item_type_id)
      select b, default_branch(), default_item_type()
      from unnest(${sql.param(books)}::integer[]) as b cross join generate_series(1, ${COPIES_PER_BOOK}) as n
      order by b, n`);
    await t.database.db.execute(sql`with lent as (
        select c.id as copy_id, c.book_id, row_number() over (partition by c.book_id order by c.id) as n
        from copies as c where c.id > ${before?.last ?? 0}
      )
      insert into loans (book_id, borrower_id, copy_id, branch_id, borrowed_at, due_at, loan_period, loan_period_unit,
        renewals_allowed, fine_per_day, grace_days, fine_cap, lost_after_days, lost_charge, floating)
      select lent.book_id, (${sql.param(borrowers)}::integer[])[lent.n::integer], lent.copy_id, default_branch(),
        ${new Date(now.getTime() - 12 * DAY_MS).toISOString()}::timestamptz,
        ${new Date(now.getTime() + 2 * DAY_MS).toISOString()}::timestamptz,
        14, 'days', 2, 20, 2, 1000, null, 0, false
      from lent`);
    expect(await queueDueNotices(t.database.db, { at: now, dueDays: 3 })).toEqual({ dueSoon: DUE_SOON, overdue: 0 });
    // Whom each notice is for: the borrower of its loan.
    const addressed = new Map(
      rowsOf<{ id: number; email: string }>(
        await t.database.db.execute(sql`select n.id, u.email from notices n join users u on u.id = n.user_id
          where n.kind = 'due_soon' and n.status = 'pending'`),
      ).map((row) => [row.id, row.email]),
    );
    expect(addressed.size).toBe(DUE_SOON);

    const arrivedBefore = smtp.received.length;
    smtp.deferNext(DUE_SOON_DEFERRED);
    const settings = {
      clock,
      libraryName: 'Busy Libraries',
      from: 'notices@busy.example',
      timeZone: 'UTC',
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
      await smtp.waitFor(arrivedBefore + DUE_SOON, 50_000);
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      for (const transport of transports) transport.close();
    }
    const arrived = smtp.received.slice(arrivedBefore);
    expect(arrived).toHaveLength(DUE_SOON);
    // Each Message-ID names its notice; each notice's arrived once, to its borrower alone.
    const seen = new Map<number, string[]>();
    for (const mail of arrived) {
      const id = Number(/^<notice-(\d+)\./.exec(mail.parsed.messageId ?? '')?.[1]);
      expect(mail.parsed.subject).toMatch(/^Due back soon: Due Soon \d+$/);
      seen.set(id, [...(seen.get(id) ?? []), ...mail.rcptTo]);
    }
    expect(seen.size).toBe(DUE_SOON);
    for (const [id, email] of addressed) expect(seen.get(id)).toEqual([email]);
    const rows = rowsOf<{ status: string; count: number; attempts: number }>(
      await t.database.db.execute(sql`select status, count(*)::int as count, sum(attempts)::int as attempts
        from notices where kind = 'due_soon' group by status`),
    );
    // All sent, none left pending; the deferred ones took a second attempt each.
    expect(rows).toEqual([{ status: 'sent', count: DUE_SOON, attempts: DUE_SOON + DUE_SOON_DEFERRED }]);
    const [left] = rowsOf<{ count: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as count from notices where status in ('pending', 'sending')`,
      ),
    );
    expect(left?.count).toBe(0);
  }, 60_000);
});
