/**
 * The desk and the patron, one journey in real Chromium (Debian's, driven by playwright-core) from the
 * keyboard alone (Tab, typing, Enter), against the app on a socket with a fixed business clock and a real
 * SMTP server in this process: a patron signs in with card and PIN, finds a book by a misspelt search and
 * holds it for pickup at Harbour branch; a librarian at Main checks the copy in (in transit to Harbour); a
 * librarian at Harbour receives it (the hold is ready) and the patron's notice arrives naming Harbour; the
 * patron borrows it at Harbour's desk by card and barcode, renews it from My account, brings it back late
 * (the fine charged at the check-in desk) and sees the fine on My account; the librarian records the
 * payment on the account. axe finds no violation at all on any page of the journey.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { type NoticeTransport, sendDueNotices, smtpTransport } from '../src/notices/index.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrowed } from './support/circulation.js';
import { DAY_MS, fixedClock, HOUR_MS } from './support/clock.js';
import { startSmtpServer, type TestSmtpServer } from './support/smtp.js';

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};
const START = '2026-10-05T09:00:00.000Z';
const TITLE = 'Lighthouse Keepers of the North';
const BARCODE = 'JOURNEY-0001';
const HARBOUR = 'Harbour branch';

const clock = fixedClock(START);
let t: TestCatalogue;
let server: ServerType | undefined;
let base: string;
let browser: Browser;
let smtp: TestSmtpServer;
let transport: NoticeTransport;
const branch = { main: 0, harbour: 0 };
/** Who signs in, with the card and PIN each types. */
const people = {
  patron: { id: 0, name: 'Pia Patron', card: 'CARD-PIA-0001', pin: '482193', email: 'pia@patrons.example' },
  atMain: { id: 0, name: 'Mo Main', card: 'CARD-MO-0001', pin: '731902' },
  atHarbour: { id: 0, name: 'Hana Harbour', card: 'CARD-HANA-0001', pin: '560284' },
};
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const pageErrors: string[] = [];

const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
  rowsOf<T>(await t.database.db.execute(query))[0] as T;

/** A user with this role, home branch, library card and PIN (set as a librarian sets it). */
async function person(who: { name: string; card: string; pin: string }, role: 'member' | 'librarian', home: number) {
  const user = await addUser(t, who.name, role);
  await t.database.db.execute(
    sql`update users set card_number = ${who.card}, home_branch_id = ${home} where id = ${user.id}`,
  );
  const pin = await t.send('PUT', `/users/${user.id}/pin`, { pin: who.pin });
  expect(pin.status, await pin.clone().text()).toBe(200);
  return user.id;
}

/** Every violation axe finds on the page, whatever its impact (its source injected: the CSP is bypassed). */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>(
    'axe.run(document, { resultTypes: ["violations"] })',
  );
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Requires axe to find nothing on the page as it stands. */
async function axeClean(page: Page): Promise<void> {
  expect(await violations(page), new URL(page.url()).pathname + new URL(page.url()).search).toEqual([]);
}

/**
 * Presses Tab until the element with the focus matches `selector`, as a person tabs to a field or button:
 * Shift+Tab when it is above what has the focus now (a link over the desk's barcode field).
 */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  const quoted = JSON.stringify(selector);
  const reached = `document.activeElement?.matches(${quoted}) ?? false`;
  const above = `(() => {
    const target = document.querySelector(${quoted});
    const at = document.activeElement;
    if (!target || !at || at === document.body) return false;
    return (at.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
  })()`;
  const key = (await page.evaluate<boolean>(above)) ? 'Shift+Tab' : 'Tab';
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    if (await page.evaluate<boolean>(reached)) return;
  }
  throw new Error(`${limit} presses of ${key} never reached ${selector} on ${page.url()}`);
}

/** Tabs to the link and follows it with Enter, waiting for the page it leads to. */
async function follow(page: Page, selector: string, lands: RegExp): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.press('Enter');
  await page.waitForURL(lands);
}

/** What has the focus: its id, or its tag (polled: a page's autofocus comes a moment after its load). */
const focused = (page: Page) => page.evaluate<string>('document.activeElement?.id || document.activeElement?.tagName');

/** Types as a scanner does: the code, then Enter, into whatever has the focus. */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** The line of "This visit" for a barcode, once its answer has come. */
async function resultFor(page: Page, barcode: string): Promise<string> {
  const line = page.locator(`#desk-results li[data-barcode="${barcode}"]`).first();
  await line.locator('.title, .reason').first().waitFor();
  return ((await line.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

const textOf = async (page: Page, selector: string) => (await page.locator(selector).first().textContent())?.trim();

/** A browser of its own, signed in through the header's "Library card" and "PIN" fields from the keyboard. */
async function signedIn(who: { card: string; pin: string }): Promise<{ context: BrowserContext; page: Page }> {
  // axe's source is an inline script, which the policy rightly refuses: these pages only bypass it.
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(base);
  await axeClean(page);
  await tabTo(page, 'header form[rel="login"] [name="card_number"]');
  expect(await page.locator('label[for="header-login-card_number"]').textContent()).toMatch(/^Library card/);
  await page.keyboard.type(who.card);
  await tabTo(page, 'header form[rel="login"] [name="pin"]');
  await page.keyboard.type(who.pin);
  await page.keyboard.press('Enter');
  await page.locator('header form[rel="logout"]').waitFor();
  await axeClean(page);
  return { context, page };
}

beforeAll(async () => {
  t = await openTestCatalogue({ clock });
  smtp = await startSmtpServer();
  transport = smtpTransport(smtp.url);
  branch.main = (await one<{ id: number }>(sql`select id from branches where code = 'main'`)).id;
  branch.harbour = (
    await one<{ id: number }>(sql`insert into branches (code, name) values ('harbour', ${HARBOUR}) returning id`)
  ).id;
  const fined = (
    await one<{ id: number }>(sql`insert into item_types (code, name) values ('fined', 'Fined') returning id`)
  ).id;
  // 25 cents a day from the first day late.
  await t.database.db.execute(
    sql`insert into loan_rules (item_type_id, fine_per_day, grace_days, fine_cap) values (${fined}, 25, 0, 1000)`,
  );
  const book = await addBook(t, TITLE, 1998, await addAuthor(t, 'Agnes Lamp'));
  await t.database.db.execute(
    sql`update copies set barcode = ${BARCODE}, item_type_id = ${fined} where book_id = ${book}`,
  );
  people.patron.id = await person(people.patron, 'member', branch.main);
  await t.database.db.execute(sql`update users set email = ${people.patron.email} where id = ${people.patron.id}`);
  people.atMain.id = await person(people.atMain, 'librarian', branch.main);
  people.atHarbour.id = await person(people.atHarbour, 'librarian', branch.harbour);
  // Out with someone else, so that the patron can only hold it.
  await borrowed(t, book, { borrower_id: (await addUser(t, 'Otto Other')).id });

  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(LAUNCH);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  transport?.close();
  await smtp?.stop();
  await t?.close();
}, 60_000);

describe('the desk and the patron, one journey from the keyboard', () => {
  it('signs in by card, holds a book found misspelt, sends it across, lends, renews, fines and takes the payment', async () => {
    // The patron: signed in by card and PIN, a misspelt search from the root's search form.
    const patron = await signedIn(people.patron);
    const reader = patron.page;
    expect(await textOf(reader, 'header .who')).toBe(`Signed in as ${people.patron.name}`);
    await tabTo(reader, 'form[rel="search"] [name="query"]');
    await reader.keyboard.type('lighthose keepers');
    await reader.keyboard.press('Enter');
    await reader.waitForURL(/\/books\?(.*&)?query=lighthose/);
    expect(await textOf(reader, 'a[rel="correction"]')).toBe('lighthouse keepers');
    await axeClean(reader);
    await follow(reader, `li.result h3 a[rel="item"]`, /\/books\/\d+$/);
    const bookUrl = reader.url();
    expect(await textOf(reader, 'h1')).toBe(TITLE);
    await axeClean(reader);

    // Out on loan: a hold, collected at Harbour (the branch picker takes the branch's number as typed).
    await tabTo(reader, 'form[rel="hold"] input[role="combobox"]');
    await reader.keyboard.type(String(branch.harbour));
    await tabTo(reader, 'form[rel="hold"] button[type="submit"]');
    await reader.keyboard.press('Enter');
    await reader.waitForURL(/\/holds\/\d+$/);
    expect(await textOf(reader, 'dd[data-field="status"]')).toBe('waiting');
    await axeClean(reader);
    const holdPath = new URL(reader.url()).pathname;

    // A librarian at Main checks the copy in: it goes to Harbour, for the patron.
    const main = await signedIn(people.atMain);
    await follow(main.page, 'a[rel="desk"]', /\/desk$/);
    await axeClean(main.page);
    await follow(main.page, 'a[rel="checkins"]', /\/desk\/checkins$/);
    await expect.poll(() => focused(main.page)).toBe('desk-check-in-barcode');
    await scan(main.page, BARCODE);
    expect(await resultFor(main.page, BARCODE)).toBe(
      `${BARCODE} ${TITLE} In transit to ${HARBOUR} for ${people.patron.name} No fine`,
    );
    await axeClean(main.page);
    await main.context.close();

    // A librarian at Harbour finds the copy by the book's copies and receives it: the hold is ready.
    const harbour = await signedIn(people.atHarbour);
    const desk = harbour.page;
    await tabTo(desk, 'form[rel="search"] [name="query"]');
    await desk.keyboard.type(TITLE);
    await desk.keyboard.press('Enter');
    await desk.waitForURL(/\/books\?/);
    await follow(desk, 'li.result h3 a[rel="item"]', /\/books\/\d+$/);
    expect(desk.url()).toBe(bookUrl);
    await axeClean(desk);
    await follow(desk, 'main a[rel="copies"]', /\/books\/\d+\/copies/);
    await axeClean(desk);
    await follow(desk, 'main a[rel="item"]', /\/copies\/\d+$/);
    expect(await textOf(desk, 'dd[data-field="status"]')).toBe('in_transit');
    await axeClean(desk);
    await tabTo(desk, 'form[rel="receive"] button[type="submit"]');
    const reloaded = desk.waitForEvent('load');
    await desk.keyboard.press('Enter');
    await reloaded;
    // Set aside on Harbour's hold shelf for the patron.
    expect(await textOf(desk, 'dd[data-field="status"]')).toBe('on_hold');
    await axeClean(desk);
    const ready = await json<{ status: string }>(await t.request(holdPath));
    expect(ready.status).toBe('ready');

    // The patron's notice: ready for pickup, at Harbour.
    const round = await sendDueNotices(t.database.db, transport, {
      clock,
      libraryName: 'Riverside Libraries',
      from: 'notices@riverside.example',
      timeZone: 'UTC',
    });
    expect(round).toMatchObject({ claimed: 1, sent: 1 });
    const [mail] = await smtp.waitFor(1);
    expect(mail?.rcptTo).toEqual([people.patron.email]);
    expect(mail?.parsed.subject).toBe(`Ready for pickup: ${TITLE}`);
    expect(mail?.parsed.text).toContain(`waiting for you at ${HARBOUR}`);
    expect(mail?.parsed.html).toContain(`<strong>${HARBOUR}</strong>`);

    // At Harbour's desk: the patron's card, Enter, the barcode, Enter.
    await follow(desk, 'header a[rel="home"]', /\/$/);
    await follow(desk, 'a[rel="desk"]', /\/desk$/);
    await expect.poll(() => focused(desk)).toBe('desk-card');
    await scan(desk, people.patron.card);
    await desk.waitForURL(/\/desk\?card_number=/);
    await expect.poll(() => focused(desk)).toBe('desk-check-out-barcode');
    await scan(desk, BARCODE);
    expect(await resultFor(desk, BARCODE)).toMatch(new RegExp(`^${BARCODE} ${TITLE} Due \\d{4}-\\d{2}-\\d{2}$`));
    await axeClean(desk);

    // Ten days on, the patron renews it from My account: due a renewal period from now.
    clock.advance(10 * DAY_MS);
    await follow(reader, 'header a[rel="home"]', /\/$/);
    await follow(reader, 'a[rel="my_account"]', /\/me$/);
    const loanRow = reader.locator('tr[data-rel="loans"]');
    expect(await loanRow.count()).toBe(1);
    expect(await loanRow.locator('td[data-field="renewals"]').textContent()).toBe('0');
    await axeClean(reader);
    await tabTo(reader, 'tr[data-rel="loans"] form[rel="renew"] button');
    await reader.keyboard.press('Enter');
    await loanRow.locator('td[data-field="renewals"]', { hasText: '1' }).waitFor();
    await axeClean(reader);
    const { due_at: due } = await one<{ due_at: Date | string }>(
      sql`select due_at from loans where borrower_id = ${people.patron.id} and returned_at is null`,
    );
    expect(new Date(due).getTime()).toBeGreaterThan(clock.now().getTime() + 13 * DAY_MS);

    // Three days late, back at Harbour's check-in desk: the fine charged.
    clock.set(new Date(new Date(due).getTime() + 3 * DAY_MS - 12 * HOUR_MS));
    await follow(desk, 'a[rel="checkins"]', /\/desk\/checkins$/);
    await expect.poll(() => focused(desk)).toBe('desk-check-in-barcode');
    await scan(desk, BARCODE);
    expect(await resultFor(desk, BARCODE)).toMatch(/ Fine charged: €0\.75$/);
    await axeClean(desk);

    // The patron sees the fine on My account.
    await follow(reader, 'header a[rel="home"]', /\/$/);
    await follow(reader, 'a[rel="my_account"]', /\/me$/);
    expect(await textOf(reader, 'dd[data-field="balance"]')).toBe('€0.75');
    expect(await reader.locator('tr[data-rel="loans"]').count()).toBe(0);
    expect(await reader.locator('tr[data-rel="charges"]').count()).toBe(1);
    await axeClean(reader);

    // The librarian reads the card again, opens the account and records the payment.
    await follow(desk, 'a[rel="desk"]', /\/desk$/);
    await expect.poll(() => focused(desk)).toBe('desk-card');
    await scan(desk, people.patron.card);
    await desk.waitForURL(/\/desk\?card_number=/);
    expect(await textOf(desk, 'dd[data-field="balance"]')).toBe('€0.75');
    await follow(desk, 'section.patron a[rel="account"]', /\/users\/\d+\/account$/);
    await axeClean(desk);
    await tabTo(desk, 'form[rel="create"] [name="amount"]');
    await desk.keyboard.type('75');
    await desk.keyboard.press('Enter');
    await desk.waitForURL((address) => !address.pathname.endsWith('/account'));
    await axeClean(desk);
    await follow(reader, 'header a[rel="home"]', /\/$/);
    await follow(reader, 'a[rel="my_account"]', /\/me$/);
    expect(await textOf(reader, 'dd[data-field="balance"]')).toBe('€0.00');

    await patron.context.close();
    await harbour.context.close();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
