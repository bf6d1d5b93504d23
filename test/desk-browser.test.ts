/**
 * The circulation desk in real Chromium (Debian's, driven by playwright-core), from the keyboard alone as a
 * barcode scanner drives it (it types the code and presses Enter), against the app on a socket with a fixed
 * business clock: a librarian scans a card that names nobody (said beside the card field), reads a patron's
 * card, scans a copy (lent, with its due date), a copy the lending rules refuse (the rule's reason beside its
 * barcode) and a barcode that names nothing (the error beside it); then, at the check-in desk, a copy someone
 * holds at another branch (in transit there, for them; scanned again before it left, to be sent on) and a
 * late return (the fine charged). axe finds no violation at all, whatever its impact, on either desk.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { addAuthor, addBook, addUser, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrowed, held } from './support/circulation.js';
import { DAY_MS, fixedClock, HOUR_MS } from './support/clock.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};
const START = '2026-06-01T09:00:00.000Z';

const clock = fixedClock(START);
let t: TestCatalogue;
let server: ServerType | undefined;
let url: string;
let browser: Browser;
/** Barcodes of the copies the journey scans. */
const copy = { lend: 'DESK-0001', reference: 'DESK-0002', held: 'DESK-0003', late: 'DESK-0004' };
let lateDue: string;

const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
  rowsOf<T>(await t.database.db.execute(query))[0] as T;

/** A book whose one copy carries `barcode` (of an item type when named); answers the book. */
async function bookWith(title: string, barcode: string, itemType?: number): Promise<number> {
  const bookId = await addBook(t, title, 2001, await addAuthor(t, `Author of ${title}`));
  await t.database.db.execute(
    sql`update copies set barcode = ${barcode}, item_type_id = coalesce(${itemType ?? null}::integer, item_type_id)
        where book_id = ${bookId}`,
  );
  return bookId;
}

async function patron(name: string, card: string, home: number) {
  const user = await addUser(t, name, 'member');
  await t.database.db.execute(
    sql`update users set card_number = ${card}, home_branch_id = ${home} where id = ${user.id}`,
  );
  return user;
}

/** Every violation axe finds on the page, whatever its impact (its source injected, so the CSP is bypassed). */
async function violations(page: Page): Promise<string[]> {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>(
    'axe.run(document, { resultTypes: ["violations"] })',
  );
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What has the focus: its id, or its tag. */
const focused = (page: Page) => page.evaluate<string>('document.activeElement?.id || document.activeElement?.tagName');

/** Types as a scanner does: the code, then Enter, into whatever has the focus. */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** The line of "This visit" for a barcode, once its answer has come. */
async function resultFor(page: Page, barcode: string): Promise<{ text: string; refused: boolean }> {
  const line = page.locator(`#desk-results li[data-barcode="${barcode}"]`);
  await line.locator('.title, .reason').first().waitFor();
  return {
    text: ((await line.textContent()) ?? '').replace(/\s+/g, ' ').trim(),
    refused: (await line.getAttribute('class'))?.includes('refused') ?? false,
  };
}

beforeAll(async () => {
  t = await openTestCatalogue({ clock });
  const main = (await one<{ id: number }>(sql`select id from branches where code = 'main'`)).id;
  const east = (
    await one<{ id: number }>(sql`insert into branches (code, name) values ('east', 'East branch') returning id`)
  ).id;
  const reference = (
    await one<{ id: number }>(sql`insert into item_types (code, name) values ('ref', 'Reference') returning id`)
  ).id;
  await t.database.db.execute(sql`insert into loan_rules (item_type_id, lendable) values (${reference}, false)`);
  const fined = (
    await one<{ id: number }>(sql`insert into item_types (code, name) values ('fined', 'Fined') returning id`)
  ).id;
  await t.database.db.execute(
    sql`insert into loan_rules (item_type_id, fine_per_day, grace_days, fine_cap) values (${fined}, 25, 0, 1000)`,
  );
  const dora = await patron('Dora Desk', 'CARD-DORA', main);
  const egon = await patron('Egon East', 'CARD-EGON', east);
  await bookWith('Scanned And Lent', copy.lend);
  await bookWith('Reference Only', copy.reference, reference);
  // Out with Dora, and Egon, whose branch is East, waits for it there.
  const heldBook = await bookWith('Wanted At East', copy.held);
  await borrowed(t, heldBook, { borrower_id: dora.id });
  await held(t.as(egon.token), heldBook);
  // Out with Dora, to come back late.
  const late = await borrowed(t, await bookWith('Brought Back Late', copy.late, fined), { borrower_id: dora.id });
  lateDue = late.due_at;

  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(LAUNCH);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
}, 60_000);

describe('the circulation desk in the browser, from the keyboard', () => {
  it('lends by card and barcode, refuses beside the barcode, and checks in saying where each copy goes', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, bypassCSP: true });
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));

    // Signing in through the header (its token field, tucked under a disclosure: Enter opens it), and to the
    // desk by its link: keys only.
    await page.goto(url);
    await page.locator('header form[rel="login"] summary').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type(LIBRARIAN_TOKEN);
    await page.keyboard.press('Enter');
    await page.locator('header form[rel="logout"]').waitFor();
    await page.locator('a[rel="desk"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/desk$/);

    // The card field has the focus; a card read shows the patron and gives the focus to the barcode.
    expect(await focused(page)).toBe('desk-card');
    // A card that names nobody: said beside the field, which keeps the focus for the next scan.
    await scan(page, 'CARD-NOBODY');
    const cardError = page.locator('[data-error-for="card_number"]');
    await cardError.waitFor();
    expect(await cardError.textContent()).toBe('card_number names no user');
    expect(await page.locator('#desk-card').getAttribute('aria-invalid')).toBe('true');
    expect(await focused(page)).toBe('desk-card');
    expect(await violations(page)).toEqual([]);
    await scan(page, 'CARD-DORA');
    await page.waitForURL(/\/desk\?card_number=CARD-DORA$/);
    expect(await page.locator('section.patron a[rel="borrower"]').textContent()).toBe('Dora Desk');
    expect((await page.locator('[data-loans-out]').textContent())?.trim()).toBe('2');
    expect(await focused(page)).toBe('desk-check-out-barcode');

    // A copy on the shelf: lent, with its title and due date.
    await scan(page, copy.lend);
    const lent = await resultFor(page, copy.lend);
    expect(lent.refused).toBe(false);
    expect(lent.text).toMatch(/^DESK-0001 Scanned And Lent Due \d{4}-\d{2}-\d{2}$/);
    expect(await focused(page)).toBe('desk-check-out-barcode');
    // A copy the lending rules refuse: the rule's reason beside its barcode.
    await scan(page, copy.reference);
    const refused = await resultFor(page, copy.reference);
    expect(refused.refused).toBe(true);
    expect(refused.text).toMatch(/^DESK-0002 an item of type Reference is not lent \(rule \d+\)$/);
    // A barcode that names nothing: the error beside it.
    await scan(page, 'NO-SUCH-0000');
    const unknown = await resultFor(page, 'NO-SUCH-0000');
    expect(unknown).toEqual({ text: 'NO-SUCH-0000 barcode names no copy', refused: true });
    expect(await focused(page)).toBe('desk-check-out-barcode');
    // Newest first; one more loan out.
    expect(await page.locator('#desk-results li').evaluateAll((items) => items.map((i) => i.dataset.barcode))).toEqual([
      'NO-SUCH-0000',
      copy.reference,
      copy.lend,
    ]);
    expect((await page.locator('[data-loans-out]').textContent())?.trim()).toBe('3');
    expect(await violations(page)).toEqual([]);
    const loan = await one<{ n: number }>(
      sql`select count(*)::int as n from loans l join copies c on c.id = l.copy_id where c.barcode = ${copy.lend}`,
    );
    expect(Number(loan.n)).toBe(1);

    // The check-in desk, by its link: the barcode field has the focus.
    await page.locator('a[rel="checkins"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/desk\/checkins$/);
    expect(await focused(page)).toBe('desk-check-in-barcode');
    // A copy held at East: in transit there, for the patron who waits for it.
    await scan(page, copy.held);
    expect(await resultFor(page, copy.held)).toEqual({
      text: 'DESK-0003 Wanted At East In transit to East branch for Egon East No fine',
      refused: false,
    });
    // Three days late: the fine charged.
    clock.set(new Date(Date.parse(lateDue) + 3 * DAY_MS - 12 * HOUR_MS));
    await scan(page, copy.late);
    expect(await resultFor(page, copy.late)).toEqual({
      text: 'DESK-0004 Brought Back Late Shelf at Main library Fine charged: €0.75',
      refused: false,
    });
    expect(await focused(page)).toBe('desk-check-in-barcode');
    // The copy on its way to East, scanned here again before the van left: it is to be sent on.
    await page.keyboard.type(copy.held);
    await page.keyboard.press('Enter');
    await page.locator(`#desk-results li[data-barcode="${copy.held}"]`).nth(1).waitFor();
    const again = page.locator(`#desk-results li[data-barcode="${copy.held}"]`).first();
    await again.locator('.title').waitFor();
    expect(((await again.textContent()) ?? '').replace(/\s+/g, ' ').trim()).toBe(
      'DESK-0003 Wanted At East Not for this branch, send it on: In transit to East branch for Egon East No fine',
    );
    expect(await focused(page)).toBe('desk-check-in-barcode');
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
