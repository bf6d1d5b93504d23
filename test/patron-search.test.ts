/**
 * The patron search page in real Chromium (Debian's, driven by playwright-core), against the real server
 * process with the sample catalogue: a person types an author's name misspelt, picks the author among the
 * suggestions, narrows by a decade and by availability, removes one of those, and borrows a book from the
 * results, signing in through the page's own control, with no URL typed by hand. axe-core finds no serious
 * or critical violation on the page with its facets and suggestions open.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './support/catalogue.js';
import { borrowed } from './support/circulation.js';
import {
  type BookDocument,
  type NewTokenDocument,
  type PageDoc,
  present,
  type UserDocument,
} from './support/documents.js';
import { clientOf, type RunningServer, startServer } from './support/server.js';

const ADMIN_TOKEN = `patron-admin-${randomBytes(12).toString('hex')}`;
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};

let server: RunningServer | undefined;
let browser: Browser;
let memberToken: string;
/** The one of Jane Austen's books of the 1810s that is out on loan. */
let lentTitle: string;

/** The document `T` at `path`, read as the librarian. */
async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(new URL(path, server?.url), {
    ...init,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', ...init.headers },
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return json<T>(response);
}

/** Serious and critical violations axe finds on the page (its source injected, so the CSP is bypassed). */
async function violations(page: Page): Promise<string[]> {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>(
    'axe.run(document, { resultTypes: ["violations"] })',
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const titles = (page: Page) => page.locator('li.result h3 a[rel="item"]').allTextContents();

beforeAll(async () => {
  server = await startServer({ env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN } });
  browser = await chromium.launch(LAUNCH);
  // A member to borrow with, and one of Austen's books of the 1810s out on loan (to someone else).
  const member = await api<UserDocument>('/users', {
    method: 'POST',
    body: JSON.stringify({ name: 'Patron Reader', role: 'member' }),
  });
  memberToken = (await api<NewTokenDocument>(`/users/${member.id}/tokens`, { method: 'POST', body: '{}' })).token;
  const emma = present((await api<PageDoc<BookDocument>>('/books?query=emma&author=austen&page=1')).data[0], 'Emma');
  lentTitle = emma.title;
  await borrowed(clientOf(server as RunningServer, ADMIN_TOKEN), emma.id);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

describe('a patron searching in the browser', () => {
  it('finds an author misspelt, narrows by decade and availability, removes one, and borrows a book', async () => {
    // axe's source is an inline script, which the policy rightly refuses: this page only bypasses it.
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, bypassCSP: true });
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(server?.url as string);
    await page.locator('a[rel="books"]').click();
    await page.waitForURL(/\/books\?/);

    // The search box suggests as the person types, forgiving the misspelling.
    const box = page.getByRole('combobox', { name: 'Search titles and authors' });
    await box.pressSequentially('jane austin');
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await listbox.waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await box.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
    const author = listbox.getByRole('option', { name: /Jane Austen/ });
    await author.waitFor();
    // The keys of a combobox: down moves through the options, Escape closes the list.
    await box.press('ArrowDown');
    const first = listbox.getByRole('option').first();
    expect(await box.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    expect(await first.getAttribute('aria-selected')).toBe('true');
    await box.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await listbox.isVisible()).toBe(false);
    // Down opens it again on the first option; down again to the author, and Enter goes on among their books.
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    const options = await listbox.getByRole('option').allTextContents();
    const at = options.findIndex((name) => name.includes('Jane Austen'));
    for (let step = 0; step < at; step++) await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await author.getAttribute('id'));
    await box.press('Enter');
    await page.waitForURL(/\/authors\/\d+\/books\?/);
    const austen = await titles(page);
    expect(austen.length).toBeGreaterThan(0);
    for (const name of await page.locator('li.result a[rel="author"]').allTextContents())
      expect(name).toBe('Jane Austen');

    // The page asked for its facets: the sidebar shows them with counts.
    const facets = page.locator('nav.facets');
    const decade = facets.locator('section[data-facet="decade"]').getByRole('link', { name: /^1810s/ });
    await decade.waitFor();

    // With the facets and a list of suggestions open, axe finds nothing serious.
    await box.pressSequentially('pers');
    await listbox.waitFor();
    expect(await violations(page)).toEqual([]);
    await box.press('Escape');
    await box.fill('');

    // Narrow by decade: the count the facet showed is the count of results.
    const decadeCount = Number(await decade.locator('xpath=following-sibling::span[@class="count"]').textContent());
    await decade.click();
    await page.waitForURL(/filter=decade%3A1810|filter=decade:1810/);
    const ofTheDecade = await titles(page);
    expect(ofTheDecade).toHaveLength(decadeCount);
    expect(ofTheDecade).toContain(lentTitle);
    for (const year of await page.locator('li.result [data-field="publication_year"]').allTextContents()) {
      expect(Number(year)).toBeGreaterThanOrEqual(1810);
      expect(Number(year)).toBeLessThan(1820);
    }

    // Narrow by availability: only what is on the shelf, and the lent book is gone.
    await facets
      .locator('section[data-facet="available"]')
      .getByRole('link', { name: /^On the shelf/ })
      .click();
    await page.waitForURL(/filter=available/);
    const onTheShelf = await titles(page);
    expect(onTheShelf).toHaveLength(ofTheDecade.length - 1);
    expect(onTheShelf).not.toContain(lentTitle);
    for (const said of await page.locator('li.result .availability').allTextContents())
      expect(said).toMatch(/^On the shelf/);

    // Both choices are chips; removing the decade keeps availability.
    const chips = facets.locator('ul.chips a[data-chosen]');
    expect(await chips.count()).toBe(2);
    await facets.getByRole('link', { name: /^Remove Decade: 1810s$/ }).click();
    await page.waitForURL((address) => !/filter=decade/.test(address.search));
    expect(await chips.count()).toBe(1);
    expect(await chips.first().getAttribute('aria-label')).toMatch(/^Remove .*: On the shelf$/);
    const shelved = await titles(page);
    expect(shelved.length).toBe(austen.length - 1);
    expect(shelved).toEqual(expect.arrayContaining(onTheShelf));

    // Borrow one: its page is where borrowing is, once signed in through the page's own control.
    const chosen = onTheShelf[0] as string;
    await page.locator('li.result h3 a[rel="item"]', { hasText: chosen }).click();
    await page.waitForURL(/\/books\/\d+$/);
    const bookUrl = page.url();
    await page.locator('header').getByText('Sign in with a token').click();
    await page.locator('header').getByLabel('Token').fill(memberToken);
    await page.locator('header').getByRole('button', { name: 'Sign in' }).click();
    await page.locator('header form[rel="logout"]').waitFor();
    expect(page.url()).toBe(bookUrl);
    await page.locator('form[rel="borrow"] button[type="submit"]').click();
    await page.waitForURL(/\/loans\/\d+$/);
    expect((await page.locator('dd[data-field="status"]').textContent())?.trim()).toBe('active');
    expect((await page.locator('header .who').textContent())?.trim()).toBe('Signed in as Patron Reader');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('without JavaScript, the same box is a plain search box and the page still narrows by links', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(server?.url as string);
    await page.locator('a[rel="books"]').click();
    await page.waitForURL(/\/books\?/);
    const box = page.getByRole('searchbox', { name: 'Search titles and authors' });
    expect(await box.getAttribute('role')).toBeNull();
    await box.fill('austen');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/query=austen/);
    expect(await titles(page)).toContain(lentTitle);
    await context.close();
  }, 60_000);
});
