/**
 * Notices by email, to a real SMTP server in this process (smtp-server, read back with mailparser): a hold
 * made ready is queued in its transaction and sent with its pickup branch in text and HTML, in the patron's
 * language; a server that is down or answers 4xx is tried again later and the notice arrives; a 5xx fails
 * it, and a patron without an address is skipped, both visible to librarians; due soon and overdue notices
 * are queued once however often the sweep runs; lost and charged notices are queued with their event or
 * not at all; a name, title or reason made to look like headers is refused, nothing queued, and one
 * stored before that stays a name. Business time is a fixed clock; PGlite, and
 * PostgreSQL with DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from '../src/db/client.js';
import { declareLostLoans } from '../src/db/queries/lost-loans.js';
import { queueDueNotices } from '../src/db/queries/notices.js';
import { RETRY_FIRST_MS } from '../src/domain/notice.js';
import { type NoticeTransport, type SenderSettings, sendDueNotices, smtpTransport } from '../src/notices/index.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrowed, held, returned } from './support/circulation.js';
import { DAY_MS, type FixedClock, fixedClock, MINUTE_MS } from './support/clock.js';
import type { LinkDoc } from './support/documents.js';
import { expectError } from './support/errors.js';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from './support/smtp.js';

const START = '2031-05-05T09:00:00.000Z';
const LIBRARY = 'Riverside Libraries';
const FROM = 'notices@riverside.example';
const BRANCH = 'Riverside Central';

interface NoticeDoc {
  id: number;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  sent_at: string | null;
  links: LinkDoc[];
}

interface NoticesDocument {
  data: NoticeDoc[];
  user_id: number;
  links: LinkDoc[];
}

describe('notices by email', () => {
  let t: TestCatalogue;
  let clock: FixedClock;
  let smtp: TestSmtpServer;
  let transport: NoticeTransport;
  let author: number;
  let serial = 0;

  const settings = (): SenderSettings => ({ clock, libraryName: LIBRARY, from: FROM, timeZone: 'UTC' });
  const send = (via: NoticeTransport = transport) => sendDueNotices(t.database.db, via, settings());
  const query = async <T>(statement: ReturnType<typeof sql>, db: Db = t.database.db): Promise<T[]> =>
    rowsOf<T>(await db.execute(statement));

  /** A member with this email address (none when `null`) and language. */
  async function patron(email: string | null, language: string | null = null, name?: string) {
    const user = await addUser(t, name ?? `Notice Patron ${++serial}`, 'member');
    await t.database.db.execute(sql`update users set email = ${email}, language = ${language} where id = ${user.id}`);
    return { ...user, client: t.as(user.token), email };
  }

  async function noticesOf(userId: number): Promise<NoticeDoc[]> {
    const response = await t.request(`/users/${userId}/notices`);
    expect(response.status).toBe(200);
    return (await json<NoticesDocument>(response)).data;
  }

  const to = (address: string): ReceivedMail[] => smtp.received.filter((mail) => mail.rcptTo.includes(address));

  /** A book whose one copy the patron's hold is given when its first borrower returns it. */
  async function holdMadeReady(waiting: { id: number; client: TestCatalogue['anonymous'] }) {
    const first = await patron(null);
    const book = await addBook(t, `The Quiet Harbour ${++serial}`, 1990, author);
    const loan = await borrowed(first.client, book);
    const hold = await held(waiting.client, book);
    await returned(first.client, loan.id);
    return { book, hold };
  }

  beforeAll(async () => {
    clock = fixedClock(START);
    t = await openTestCatalogue({ clock });
    smtp = await startSmtpServer();
    transport = smtpTransport(smtp.url);
    author = await addAuthor(t, 'Notice Author');
    await t.database.db.execute(sql`update branches set name = ${BRANCH} where code = 'main'`);
  });
  afterAll(async () => {
    transport?.close();
    await smtp?.stop();
    await t?.close();
  });

  it('a hold made ready is queued in its transaction and sent with its pickup branch, in text and HTML', async () => {
    const reader = await patron('ada@patrons.example', null, 'Ada Reader');
    const { hold } = await holdMadeReady(reader);
    const [queued] = await noticesOf(reader.id);
    expect(queued).toMatchObject({ kind: 'hold_ready', status: 'pending', attempts: 0, created_at: START });
    expect(queued?.links).toContainEqual({ rel: 'hold', href: `/holds/${hold.id}` });

    const round = await send();
    expect(round).toMatchObject({ claimed: 1, sent: 1 });
    const [mail] = await smtp.waitFor(1).then(() => to('ada@patrons.example'));
    expect(mail?.rcptTo).toEqual(['ada@patrons.example']);
    expect(mail?.mailFrom).toBe(FROM);
    expect(mail?.parsed.from?.value).toEqual([{ name: LIBRARY, address: FROM }]);
    expect(mail?.parsed.to).toMatchObject({ value: [{ name: 'Ada Reader', address: 'ada@patrons.example' }] });
    expect(mail?.parsed.subject).toMatch(/^Ready for pickup: The Quiet Harbour \d+$/);
    expect(mail?.parsed.text).toContain(`waiting for you at ${BRANCH}`);
    expect(mail?.parsed.text).toContain(LIBRARY);
    expect(mail?.parsed.html).toContain(`<strong>${BRANCH}</strong>`);
    expect(mail?.parsed.messageId).toMatch(new RegExp(`^<notice-${queued?.id}\\.\\d+@riverside\\.example>$`));

    const [sent] = await noticesOf(reader.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null, sent_at: START });
    // Nothing is due any more: a second round sends nothing.
    expect((await send()).claimed).toBe(0);
    expect(to('ada@patrons.example')).toHaveLength(1);
  });

  it('a patron whose language is French reads French; any other language reads English', async () => {
    const french = await patron('fleur@patrons.example', 'fr-CA', 'Fleur Lectrice');
    const welsh = await patron('gwen@patrons.example', 'cy', 'Gwen Reader');
    await holdMadeReady(french);
    await holdMadeReady(welsh);
    await send();
    await smtp.waitFor(3);
    const [fr] = to('fleur@patrons.example');
    expect(fr?.parsed.subject).toMatch(/^Disponible : /);
    expect(fr?.parsed.text).toContain(`vous attend à ${BRANCH}`);
    expect(fr?.parsed.html).toContain('<html lang="fr">');
    expect(fr?.parsed.headers.get('content-language')).toBe('fr');
    const [en] = to('gwen@patrons.example');
    expect(en?.parsed.subject).toMatch(/^Ready for pickup: /);
  });

  it('a patron without an email address is sent nothing, and librarians see why on the user', async () => {
    const silent = await patron(null, null, 'Sam Silent');
    const before = smtp.received.length;
    await holdMadeReady(silent);
    expect(await noticesOf(silent.id)).toMatchObject([
      { kind: 'hold_ready', status: 'skipped', attempts: 0, last_error: 'no email address' },
    ]);
    expect((await send()).claimed).toBe(0);
    expect(smtp.received.length).toBe(before);

    const user = await json<{ notices?: string; links: LinkDoc[] }>(await t.request(`/users/${silent.id}`));
    expect(user.notices).toBe('none are sent: no email address');
    expect(user.links).toContainEqual({
      rel: 'notices',
      href: `/users/${silent.id}/notices`,
      title: 'Notices: none are sent, no email address',
    });
    // The patron's own reading of themselves says nothing of notices, and their notices are the desk's.
    const own = await json<{ notices?: string; links: LinkDoc[] }>(await silent.client.request(`/users/${silent.id}`));
    expect(own.notices).toBeUndefined();
    expect(own.links.map((link) => link.rel)).not.toContain('notices');
    await expectError(await silent.client.request(`/users/${silent.id}/notices`), 403);
    await expectError(await t.anonymous.request(`/users/${silent.id}/notices`), 401);
    // A patron with an address: no such word on the user.
    const reachable = await patron('rita@patrons.example');
    const other = await json<{ notices?: string }>(await t.request(`/users/${reachable.id}`));
    expect(other.notices).toBeUndefined();
  });

  it('a server that is down is tried again with backoff, and the notice arrives when it is back', async () => {
    const down = await startSmtpServer({ listening: false });
    const downTransport = smtpTransport(down.url);
    try {
      const reader = await patron('dora@patrons.example');
      await holdMadeReady(reader);
      expect(await send(downTransport)).toMatchObject({ claimed: 1, retried: 1 });
      const [waiting] = await noticesOf(reader.id);
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
      expect(waiting?.last_error).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
      expect(waiting?.next_attempt_at).toBe(new Date(clock.now().getTime() + RETRY_FIRST_MS).toISOString());

      // Not before its time, even with the server back.
      await down.start();
      expect((await send(downTransport)).claimed).toBe(0);
      // The second failure doubles the wait.
      await down.stop();
      clock.advance(RETRY_FIRST_MS);
      expect(await send(downTransport)).toMatchObject({ claimed: 1, retried: 1 });
      expect((await noticesOf(reader.id))[0]?.next_attempt_at).toBe(
        new Date(clock.now().getTime() + 2 * RETRY_FIRST_MS).toISOString(),
      );
      await down.start();
      clock.advance(2 * RETRY_FIRST_MS);
      expect(await send(downTransport)).toMatchObject({ claimed: 1, sent: 1 });
      await down.waitFor(1);
      expect(down.received.map((mail) => mail.rcptTo)).toEqual([['dora@patrons.example']]);
      expect(await noticesOf(reader.id)).toMatchObject([{ status: 'sent', attempts: 3, last_error: null }]);
    } finally {
      downTransport.close();
      await down.stop();
    }
  });

  it('a 4xx is tried again later; a 5xx fails the notice, with the server\u2019s answer for librarians', async () => {
    const deferredReader = await patron('otto@patrons.example');
    await holdMadeReady(deferredReader);
    smtp.deferNext(1);
    expect(await send()).toMatchObject({ claimed: 1, retried: 1 });
    const [deferred] = await noticesOf(deferredReader.id);
    expect(deferred).toMatchObject({ status: 'pending', attempts: 1 });
    expect(deferred?.last_error).toContain('451');
    clock.advance(RETRY_FIRST_MS);
    expect(await send()).toMatchObject({ claimed: 1, sent: 1 });
    expect(to('otto@patrons.example')).toHaveLength(1);

    const bouncing = await patron('gone@patrons.example');
    smtp.bounce('gone@patrons.example');
    await holdMadeReady(bouncing);
    expect(await send()).toMatchObject({ claimed: 1, failed: 1 });
    const [failed] = await noticesOf(bouncing.id);
    expect(failed).toMatchObject({ kind: 'hold_ready', status: 'failed', attempts: 1, next_attempt_at: null });
    expect(failed?.last_error).toContain('550');
    // Failed for good: never claimed again.
    clock.advance(DAY_MS);
    expect((await send()).claimed).toBe(0);
    expect(to('gone@patrons.example')).toHaveLength(0);
  });

  it('due soon and overdue notices are queued once per loan and due date, however often the sweep runs', async () => {
    const reader = await patron('dan@patrons.example');
    const book = await addBook(t, 'The Long Tide', 2004, author);
    const loan = await borrowed(reader.client, book);
    const due = Date.parse(loan.due_at);
    const sweep = (at: number) => queueDueNotices(t.database.db, { at: new Date(at), dueDays: 3 });

    expect(await sweep(due - 4 * DAY_MS)).toEqual({ dueSoon: 0, overdue: 0 });
    expect((await sweep(due - 3 * DAY_MS)).dueSoon).toBe(1);
    expect((await sweep(due - 3 * DAY_MS + MINUTE_MS)).dueSoon).toBe(0);
    expect(await Promise.all([sweep(due - DAY_MS), sweep(due - DAY_MS)])).toEqual([
      { dueSoon: 0, overdue: 0 },
      { dueSoon: 0, overdue: 0 },
    ]);
    expect(await sweep(due + 1)).toEqual({ dueSoon: 0, overdue: 1 });
    expect(await sweep(due + DAY_MS)).toEqual({ dueSoon: 0, overdue: 0 });
    expect((await noticesOf(reader.id)).map((n) => n.kind)).toEqual(['overdue', 'due_soon']);

    clock.set(new Date(due + DAY_MS));
    // The due soon notice, claimed after the due date, is no longer so: skipped; the overdue one is sent.
    expect(await send()).toMatchObject({ claimed: 2, sent: 1, skipped: 1 });
    const [overdue, dueSoon] = await noticesOf(reader.id);
    expect(overdue?.status).toBe('sent');
    expect(dueSoon).toMatchObject({ status: 'skipped', last_error: 'no longer so: the loan is overdue' });
    const [mail] = to('dan@patrons.example');
    expect(mail?.parsed.subject).toBe('Overdue: The Long Tide');
    const dueDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(due));
    expect(mail?.parsed.text).toContain(`was due back on ${dueDay}`);
    clock.set(START);
  });

  it('a due soon notice is sent before the due date with the date in it; a loan returned first is told nothing', async () => {
    const reader = await patron('dina@patrons.example');
    const keeps = await borrowed(reader.client, await addBook(t, 'Salt Roads', 2011, author));
    const gives = await borrowed(reader.client, await addBook(t, 'Low Water', 2012, author));
    const due = Date.parse(keeps.due_at);
    clock.set(new Date(due - 2 * DAY_MS));
    expect((await queueDueNotices(t.database.db, { at: clock.now(), dueDays: 3 })).dueSoon).toBe(2);
    await returned(reader.client, gives.id);
    expect(await send()).toMatchObject({ claimed: 2, sent: 1, skipped: 1 });
    const mails = to('dina@patrons.example');
    expect(mails.map((mail) => mail.parsed.subject)).toEqual(['Due back soon: Salt Roads']);
    const kinds = await noticesOf(reader.id);
    expect(kinds.find((n) => n.status === 'skipped')?.last_error).toBe('no longer so: the loan was returned');
    clock.set(START);
  });

  it('a charge and a loan declared lost queue their notices in their transaction, and nothing when rolled back', async () => {
    const reader = await patron('lou@patrons.example', 'fr');
    const rolledBack = new Error('rolled back');
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into account_entries (user_id, kind, amount, currency, reason, created_at)
          values (${reader.id}, 'manual', 150, 'EUR', 'a new card', ${START}::timestamptz)`);
        expect(await query(sql`select id from notices where user_id = ${reader.id}`, tx)).toHaveLength(1);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await noticesOf(reader.id)).toEqual([]);

    const charged = await t.send('POST', `/users/${reader.id}/account/charges`, { amount: 150, reason: 'a new card' });
    expect(charged.status).toBe(201);
    const [charge] = await noticesOf(reader.id);
    expect(charge).toMatchObject({ kind: 'charged', status: 'pending' });

    // Lost: a copy of an item type whose rule loses a loan 10 days past due, charging 20.00 and a fine of
    // 0.10 a day from the first day, which the lost notice tells (the fine has no notice of its own).
    const [fragile] = await query<{ id: number }>(
      sql`insert into item_types (code, name) values ('fragile', 'Fragile') returning id`,
    );
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, lost_after_days, lost_charge, fine_per_day,
      grace_days) values (${fragile?.id}, 10, 2000, 10, 0)`);
    const drift = await addBook(t, 'Drift', 1999, author);
    await t.database.db.execute(sql`update copies set item_type_id = ${fragile?.id} where book_id = ${drift}`);
    const loan = await borrowed(reader.client, drift);
    const lostAt = new Date(Date.parse(loan.due_at) + 10 * DAY_MS);
    const declare = (db: Db) => declareLostLoans(db, { at: lostAt, timeZone: 'UTC', currency: 'EUR' });
    await expect(
      t.database.db.transaction(async (tx) => {
        expect((await declare(tx)).loans).toBe(1);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await noticesOf(reader.id)).toHaveLength(1);
    expect((await declare(t.database.db)).loans).toBe(1);
    expect((await declare(t.database.db)).loans).toBe(0);
    const [lost] = (await noticesOf(reader.id)).filter((n) => n.kind === 'lost');
    expect(lost?.links).toContainEqual({ rel: 'loan', href: `/loans/${loan.id}` });
    expect(lost?.links.map((link) => link.rel)).toContain('charge');

    clock.set(lostAt);
    await send();
    clock.set(START);
    const subjects = to('lou@patrons.example').map((mail) => mail.parsed.subject);
    expect(subjects).toContain('Déclaré perdu : Drift');
    expect(
      subjects.filter((subject) => /^Une somme portée à votre compte : 1,50\s€$/u.test(subject ?? '')),
    ).toHaveLength(1);
    const [fine] = await query<{ amount: number }>(
      sql`select amount from account_entries where loan_id = ${loan.id} and kind = 'overdue_fine'`,
    );
    expect(fine?.amount).toBeGreaterThan(0);
    expect((await noticesOf(reader.id)).map((n) => n.kind).sort()).toEqual(['charged', 'lost']);
    const lostMail = to('lou@patrons.example').find((mail) => mail.parsed.subject?.startsWith('Déclaré'));
    const fineText = `${Math.floor((fine?.amount ?? 0) / 100)},${String((fine?.amount ?? 0) % 100).padStart(2, '0')}`;
    expect(lostMail?.parsed.text).toMatch(
      new RegExp(
        `Une somme de 20,00\\s€ a été portée à votre compte, ainsi que ${fineText}\\s€ de pénalités de retard\\.`,
        'u',
      ),
    );
  });

  it('a lost loan returned before its notice is sent is still told its charges, without asking for the book back', async () => {
    const reader = await patron('ros@patrons.example');
    const [brittle] = await query<{ id: number }>(
      sql`insert into item_types (code, name) values ('brittle', 'Brittle') returning id`,
    );
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, lost_after_days, lost_charge, fine_per_day,
      grace_days) values (${brittle?.id}, 10, 2500, 20, 0)`);
    const shard = await addBook(t, 'Shard', 2001, author);
    await t.database.db.execute(sql`update copies set item_type_id = ${brittle?.id} where book_id = ${shard}`);
    const loan = await borrowed(reader.client, shard);
    const lostAt = new Date(Date.parse(loan.due_at) + 10 * DAY_MS);
    expect((await declareLostLoans(t.database.db, { at: lostAt, timeZone: 'UTC', currency: 'EUR' })).loans).toBe(1);
    clock.set(new Date(lostAt.getTime() + DAY_MS));
    await returned(reader.client, loan.id);
    await send();
    clock.set(START);
    expect(await noticesOf(reader.id)).toMatchObject([{ kind: 'lost', status: 'sent' }]);
    const [fine] = await query<{ amount: number }>(
      sql`select amount from account_entries where loan_id = ${loan.id} and kind = 'overdue_fine'`,
    );
    expect(fine?.amount).toBeGreaterThan(0);
    const [mail] = to('ros@patrons.example');
    expect(mail?.parsed.subject).toBe('Declared lost: Shard');
    const fineText = `€${Math.floor((fine?.amount ?? 0) / 100)}.${String((fine?.amount ?? 0) % 100).padStart(2, '0')}`;
    expect(mail?.parsed.text).toContain(`Your account was charged €25.00 for it, and ${fineText} in overdue fines.`);
    expect(mail?.parsed.text).toContain('It has since been returned; the charges stand.');
    expect(mail?.parsed.text).not.toContain('please return it');
  });

  it('a name, title or reason written as headers is refused over HTTP, naming the field: nothing changes, nothing is queued or sent', async () => {
    const injected = 'Eve\r\nBcc: victim@elsewhere.example\r\nX-Injected: yes';
    const users = async () => (await query<{ n: number }>(sql`select count(*)::int as n from users`))[0]?.n;
    const before = await users();
    await expectError(await t.send('POST', '/users', { name: injected, role: 'member' }), 400, {
      details: ['name'],
      message: /name must be one line without control characters: a carriage return \(U\+000D\) at character 4/,
    });
    expect(await users()).toBe(before);

    const reader = await patron('ivy@patrons.example', null, 'Ivy Reader');
    const received = smtp.received.length;
    const pending = async () =>
      (await query<{ n: number }>(sql`select count(*)::int as n from notices where user_id = ${reader.id}`))[0]?.n;
    // Each single-line field a notice's headers or words are made of: the user's name, the book's title,
    // the charge's reason; a line feed alone, a tab, DEL and a C1 control too.
    await expectError(await t.send('PATCH', `/users/${reader.id}`, { name: 'Ivy\nBcc: x@y.example' }), 400, {
      details: ['name'],
    });
    const book = await addBook(t, 'A Plain Title', 2001, author);
    for (const title of ['Title\r\nX-Injected: yes', 'Tab\there', 'Del\u007f', 'C1\u0085next', 'Line\u2028two']) {
      await expectError(await t.send('PATCH', `/books/${book}`, { title }), 400, { details: ['title'] });
    }
    await expectError(
      await t.send('POST', `/users/${reader.id}/account/charges`, { amount: 99, reason: 'Card\r\nX-Reason: injected' }),
      400,
      { details: ['reason'] },
    );
    // A form's text is refused the same way.
    const form = await t.request(`/users/${reader.id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: `name=${encodeURIComponent('Ivy\r\nBcc: x@y.example')}`,
    });
    await expectError(form, 400, { details: ['name'] });
    expect(await query(sql`select name from users where id = ${reader.id}`)).toEqual([{ name: 'Ivy Reader' }]);
    expect(await query(sql`select title from books where id = ${book}`)).toEqual([{ title: 'A Plain Title' }]);
    expect(await query(sql`select count(*)::int as n from account_entries where user_id = ${reader.id}`)).toEqual([
      { n: 0 },
    ]);
    expect(await pending()).toBe(0);
    expect(await noticesOf(reader.id)).toEqual([]);
    expect(await send()).toMatchObject({ claimed: 0, sent: 0 });
    expect(smtp.received.length).toBe(received);
  });

  it('a name stored with line breaks before they were refused stays the display name: the message has exactly its own headers', async () => {
    const name = 'Eve\r\nBcc: victim@elsewhere.example\r\nX-Injected: yes';
    const created = await t.send('POST', '/users', { name: 'Eve Before', role: 'member' });
    expect(created.status).toBe(201);
    const userId = (await json<{ id: number }>(created)).id;
    await t.database.db.execute(
      sql`update users set name = ${name}, email = 'eve@patrons.example' where id = ${userId}`,
    );
    expect(
      (await t.send('POST', `/users/${userId}/account/charges`, { amount: 99, reason: 'A replacement card' })).status,
    ).toBe(201);

    expect(await send()).toMatchObject({ claimed: 1, sent: 1 });
    const [mail] = to('eve@patrons.example');
    expect(mail?.rcptTo).toEqual(['eve@patrons.example']);
    expect(smtp.received.filter((m) => m.rcptTo.includes('victim@elsewhere.example'))).toEqual([]);
    const headers = [...(mail?.parsed.headers.keys() ?? [])].sort();
    expect(headers).toEqual(
      [
        'auto-submitted',
        'content-language',
        'content-type',
        'date',
        'from',
        'message-id',
        'mime-version',
        'subject',
        'to',
      ].sort(),
    );
    expect(mail?.parsed.to).toMatchObject({ value: [{ address: 'eve@patrons.example' }] });
    expect(mail?.parsed.bcc).toBeUndefined();

    // An address with a line break is refused by the database: nothing is stored, nothing queued.
    const crafted = await patron(null);
    await expect(
      t.database.db.execute(
        sql`update users set email = ${'x@patrons.example\r\nBcc: victim@elsewhere.example'} where id = ${crafted.id}`,
      ),
    ).rejects.toThrow();
    const [row] = await query<{ email: string | null }>(sql`select email from users where id = ${crafted.id}`);
    expect(row?.email).toBeNull();
  });

  it('a user\u2019s notices: newest first, a page at a time; a bad cursor or an unknown user is a clear error', async () => {
    const reader = await patron('paige@patrons.example');
    await t.database.db.execute(sql`insert into account_entries (user_id, kind, amount, currency, reason, created_at)
      select ${reader.id}, 'manual', 10, 'EUR', 'copy ' || n, ${START}::timestamptz from generate_series(1, 55) n`);
    const first = await json<NoticesDocument>(await t.request(`/users/${reader.id}/notices`));
    expect(first.data).toHaveLength(50);
    expect(first.links).toContainEqual({ rel: 'up', href: `/users/${reader.id}`, title: 'The notices\u2019 user' });
    const next = first.links.find((link) => link.rel === 'next')?.href;
    expect(next).toBe(`/users/${reader.id}/notices?cursor=${first.data[49]?.id}`);
    const second = await json<NoticesDocument>(await t.request(next as string));
    expect(second.data).toHaveLength(5);
    const ids = [...first.data, ...second.data].map((n) => n.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(second.links.map((link) => link.rel)).not.toContain('next');

    // Every format: the browsable view lists them too.
    const page = await t.request(`/users/${reader.id}/notices`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('charged');
    const hal = await t.request(`/users/${reader.id}/notices`, { headers: { Accept: 'application/hal+json' } });
    expect(hal.status).toBe(200);
    expect(hal.headers.get('content-type')).toMatch(/^application\/hal\+json/);

    await expectError(await t.request(`/users/${reader.id}/notices?cursor=abc`), 400);
    await expectError(await t.request(`/users/${reader.id}/notices?page=2`), 400);
    await expectError(await t.request('/users/99999999/notices'), 404);
    // Sent, the 55 charges arrive once each.
    while ((await send()).claimed > 0);
    expect(to('paige@patrons.example')).toHaveLength(55);
  });
});
