/**
 * The browsable view in real Chromium (Debian's, driven by playwright-core), against the real server
 * process on a fresh database with the sample catalogue: a person starts at `/`, follows links, searches,
 * signs in, creates, edits, borrows and returns a book, and signs out — with the page script, and with
 * JavaScript disabled (native form posts, `_method`, post/redirect/get). Also: a hostile title stays
 * text, cross-site posts with the session cookie are refused, the security headers are sent, no page
 * throws, and the pages fit a phone.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json } from './support/catalogue.js';
import { borrow, borrowed, returned } from './support/circulation.js';
import {
  type AuthorDocument,
  type BookDocument,
  controlOf,
  linkOf,
  type PageDoc,
  present,
} from './support/documents.js';
import { clientOf, type RunningServer, startServer } from './support/server.js';

/** The librarian token the server starts with (`CATALOGUE_ADMIN_TOKEN`): the "Administrator". */
const ADMIN_TOKEN = `browser-admin-${randomBytes(12).toString('hex')}`;
const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1">';

/**
 * Another site's page: a form that posts to the catalogue, as an attacker would host it. Served on
 * another port, so it is another origin; the same host keeps it same-site, so a SameSite=Strict cookie
 * still rides along and only the service's own check stands in the way.
 */
async function startOtherSite(target: string): Promise<{ server: Server; port: number }> {
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Win a prize</title></head><body>
<form method="post" action="${target}"><input type="hidden" name="_method" value="PATCH">
<input type="hidden" name="title" value="Hijacked"><button type="submit">Claim your prize</button></form>
</body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(page);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};

let server: RunningServer | undefined;
let browser: Browser;
let base: string;
/** The path of the book titled HOSTILE_TITLE. */
let hostileBook: string;
const contexts: BrowserContext[] = [];
/** Uncaught exceptions in any page, and anything the Content-Security-Policy blocked. */
const pageErrors: string[] = [];
const policyViolations: string[] = [];

/** A fresh browser profile whose pages report their errors here. */
async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  contexts.push(context);
  context.on('page', (page) => {
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) policyViolations.push(message.text());
    });
  });
  return context;
}

const url = (path: string) => new URL(path, base).href;
/** The JSON API, as a librarian's client (bearer token) calls it. */
const api = (path: string, init: RequestInit = {}) =>
  fetch(url(path), {
    ...init,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', ...init.headers },
  });
/** The same, for the helpers that take a client. */
const librarian = () => clientOf(server as RunningServer, ADMIN_TOKEN);
/** The document `T` at `path`, read as the librarian. */
const apiJson = async <T = unknown>(path: string): Promise<T> => json<T>(await api(path));

/** Opens the header's "Sign in with a token" (a person signs in with a card and PIN) and types the token. */
async function typeToken(page: Page, token: string): Promise<void> {
  await page.locator('header form[rel="login"] summary').click();
  await page.locator('header form[rel="login"] [name="token"]').fill(token);
}

/** Signs in through the root's `<form rel="login">`, as a script's operator pastes their token. */
async function signIn(page: Page): Promise<void> {
  await page.goto(base);
  await typeToken(page, ADMIN_TOKEN);
  await page.locator('form[rel="login"] button[type="submit"]').click();
  await page.locator('form[rel="logout"]').waitFor();
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent())?.trim();

beforeAll(async () => {
  // The defaults otherwise: the sample catalogue, public reads, request logs (the "listening" line among them).
  server = await startServer({ env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN } });
  base = server.url;
  browser = await chromium.launch(LAUNCH);
  // A book whose title is markup, added over HTTP by a librarian's client.
  const created = await api('/books', {
    method: 'POST',
    body: JSON.stringify({ title: HOSTILE_TITLE, publication_year: 1999, author_id: 1 }),
  });
  expect(created.status, `${await created.clone().text()}\n${server.output()}`).toBe(201);
  hostileBook = created.headers.get('location') as string;
}, 180_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  expect(pageErrors, 'uncaught errors in pages').toEqual([]);
  expect(policyViolations, 'Content-Security-Policy violations').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

describe('a person with a browser (script enabled)', () => {
  it('starts at /, follows Books, searches, opens a book and its author', async () => {
    const page = await (await newContext()).newPage();
    const root = await page.goto(base);
    expect(root?.status()).toBe(200);
    expect(root?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await text(page, 'h1')).toBe('Library catalogue');
    // Anonymous: sign-in and search, nothing that writes.
    expect(await page.locator('form[rel]').evaluateAll((forms) => forms.map((f) => f.getAttribute('rel')))).toEqual([
      'login',
      'search',
    ]);

    await page.locator('a[rel="books"]').click();
    await page.waitForURL(/\/books\?/);
    expect(await text(page, 'h1')).toBe('Books');
    expect(await page.locator('a[rel="item"]').count()).toBe(20);
    expect(await page.locator('nav.pager a[rel="next"]').count()).toBe(1);
    expect(await page.locator('form[rel="create"]').count()).toBe(0);

    // Paging works by following links.
    await page.locator('nav.pager a[rel="next"]').click();
    await page.waitForURL(/cursor=/);
    expect(await text(page, '[data-field="page"]')).toBe('2');
    expect(await page.locator('a[rel="item"]').count()).toBe(20);
    expect(await page.locator('nav.pager a[rel="prev"]').count()).toBe(1);

    // The search box: the relevance order, blank, is left out of the query.
    await page.getByRole('search').getByLabel('Search titles and authors').fill('hobbit');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/query=hobbit/);
    expect(new URL(page.url()).searchParams.has('sort')).toBe(false);
    const hit = page.locator('a[rel="item"]', { hasText: 'The Hobbit' });
    expect(await hit.count()).toBe(1);

    await hit.click();
    await page.waitForURL(/\/books\/\d+$/);
    expect(await text(page, 'h1')).toBe('The Hobbit');
    expect(await text(page, 'dd[data-field="publication_year"]')).toBe('1937');
    expect(await page.locator('main form').count()).toBe(0);

    await page.locator('main a[rel="author"]').click();
    await page.waitForURL(/\/authors\/\d+$/);
    expect(await text(page, 'h1')).toBe('J. R. R. Tolkien');
    // …and back from the author to their books.
    await page.locator('main a[rel="books"]').click();
    await page.waitForURL(/\/authors\/\d+\/books/);
    expect(await page.locator('a[rel="item"]', { hasText: 'The Hobbit' }).count()).toBe(1);
  }, 60_000);

  it('signs in, creates, edits (and sees a refused edit next to its field), borrows, returns, signs out', async () => {
    const context = await newContext();
    const page = await context.newPage();
    // An author to write books for: the one of The Hobbit, as the JSON API tells.
    const hobbits = await apiJson<PageDoc<BookDocument>>('/books?query=hobbit&page=1');
    const authorId = String(present(hobbits.data[0], 'The Hobbit').author_id);

    // Sign in: the cookie that holds the session is out of reach of scripts and of other sites.
    await signIn(page);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.locator('a[rel="me"]').count()).toBe(1);
    expect(await page.locator('form[rel="login"]').count()).toBe(0);
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate<string>('document.cookie')).toBe('');

    // Create a book through the books page's form, and land on it.
    await page.locator('a[rel="books"]').click();
    await page.waitForURL(/\/books\?/);
    const create = page.locator('form[rel="create"]');
    await create.locator('[name="title"]').fill('A Book Made in a Browser');
    await create.locator('[name="publication_year"]').fill('2024');
    // The record's fields: an ISBN-10 as printed, subjects one a line.
    await create.locator('[name="isbn"]').fill('0-261-10325-3');
    await create.locator('[name="subjects"]').fill('Fantasy fiction\n\nQuests ');
    // The author field is a picker: a few letters of a name offer matching authors (a few at a time, not
    // all of them), labelled by name…
    const picker = create.getByRole('combobox', { name: /Author/ });
    await picker.pressSequentially('tolk');
    const choice = create.getByRole('option', { name: 'J. R. R. Tolkien' });
    await choice.waitFor();
    // …and picking one by keyboard sends the chosen author's id.
    await picker.press('ArrowDown');
    await picker.press('Enter');
    expect(await picker.inputValue()).toBe('J. R. R. Tolkien');
    expect(await create.locator('input[type="hidden"][name="author_id"]').inputValue()).toBe(authorId);
    await create.locator('button[type="submit"]').click();
    await page.waitForURL(/\/books\/\d+$/);
    const bookUrl = page.url();
    expect(await text(page, 'h1')).toBe('A Book Made in a Browser');
    expect(await text(page, 'dd[data-field="publication_year"]')).toBe('2024');
    expect(await page.locator('main a[rel="author"]').getAttribute('href')).toBe(`/authors/${authorId}`);
    expect(await text(page, 'dd[data-field="isbn"]')).toBe('9780261103252');
    expect(await text(page, 'dd[data-field="subjects"]')).toBe('Fantasy fiction; Quests');

    // Edit it: one form (PATCH), not an update and an edit side by side; its picker shows the author by name.
    expect(await page.locator('form[rel="update"]').count()).toBe(0);
    const edit = page.locator('form[rel="edit"]');
    await expect.poll(() => edit.getByRole('combobox', { name: /Author/ }).inputValue()).toBe('J. R. R. Tolkien');
    expect(await edit.locator('[name="title"]').inputValue()).toBe('A Book Made in a Browser');
    await edit.locator('[name="title"]').fill('A Book Edited in a Browser');
    await edit.locator('button[type="submit"]').click();
    await page.getByRole('heading', { level: 1, name: 'A Book Edited in a Browser' }).waitFor();
    expect(page.url()).toBe(bookUrl);

    // An emptied ISBN is cleared; the subjects are what the box holds, one a line.
    expect(await edit.locator('[name="subjects"]').inputValue()).toBe('Fantasy fiction\nQuests');
    await edit.locator('[name="isbn"]').fill('');
    await edit.locator('[name="subjects"]').fill('Quests');
    await edit.locator('button[type="submit"]').click();
    await page.locator('dd[data-field="isbn"]', { hasText: '—' }).waitFor();
    expect(await text(page, 'dd[data-field="subjects"]')).toBe('Quests');

    // A year out of range is stopped by the browser itself (the input carries min/max)…
    await edit.locator('[name="publication_year"]').fill('99999');
    expect(
      await page.evaluate<boolean>(
        `document.querySelector('form[rel="edit"] [name="publication_year"]').validity.valid`,
      ),
    ).toBe(false);
    await edit.locator('[name="publication_year"]').fill('2024');
    // …a blank title passes the browser and the service refuses it: the error shows next to the field.
    await edit.locator('[name="title"]').fill('   ');
    await edit.locator('button[type="submit"]').click();
    const titleError = edit.locator('[data-error-for="title"]');
    await titleError.waitFor({ state: 'visible' });
    expect((await titleError.textContent())?.trim()).toMatch(/blank/);
    expect(await edit.locator('[name="title"]').getAttribute('aria-invalid')).toBe('true');
    expect(await edit.locator('[data-error-for="publication_year"]').isVisible()).toBe(false);
    expect(page.url()).toBe(bookUrl);
    expect(await text(page, 'h1')).toBe('A Book Edited in a Browser');

    // Borrow it (the librarian borrows for themselves when no borrower is named) and land on the loan.
    await page.reload();
    await page.locator('form[rel="borrow"] button[type="submit"]').click();
    await page.waitForURL(/\/loans\/\d+$/);
    expect(await text(page, 'dd[data-field="status"]')).toBe('active');
    expect(new URL((await page.locator('main a[rel="book"]').getAttribute('href')) as string, base).href).toBe(bookUrl);
    const loanUrl = page.url();

    // The book says it is out.
    await page.goto(bookUrl);
    expect(await text(page, 'dd[data-field="available"]')).toBe('no');
    expect(await page.locator('form[rel="borrow"]').count()).toBe(0);

    // Return it from the loan's page.
    await page.goto(loanUrl);
    await page.locator('form[rel="return"] button[type="submit"]').click();
    await page.locator('dd[data-field="status"]', { hasText: 'returned' }).waitFor();
    expect(page.url()).toBe(loanUrl);
    expect(await page.locator('form[rel="return"]').count()).toBe(0);

    // The loans list has it.
    await page.locator('a[rel="home"]').first().click();
    await page.locator('a[rel="loans"]').click();
    await page.waitForURL(/\/loans\?/);
    expect(await page.locator(`a[rel="item"][href="${new URL(loanUrl).pathname}"]`).count()).toBe(1);

    // Sign out: the cookie goes, and with it every form that writes.
    await page.locator('a[rel="home"]').first().click();
    await page.locator('form[rel="logout"] button[type="submit"]').click();
    await page.locator('form[rel="login"]').waitFor();
    expect(await context.cookies()).toEqual([]);
    expect(await page.locator('a[rel="me"], a[rel="loans"]').count()).toBe(0);
    await page.goto(bookUrl);
    expect(await page.locator('main form').count()).toBe(0);
    await page.goto(url('/books'));
    expect(await page.locator('form[rel]').evaluateAll((forms) => forms.map((f) => f.getAttribute('rel')))).toEqual([
      'login',
      'search',
    ]);
  }, 90_000);

  it('shows a hostile title as text, on its page and in the list, and never runs it', async () => {
    const location = hostileBook;
    const page = await (await newContext()).newPage();

    await page.goto(url(location));
    expect(await page.locator('h1').textContent()).toBe(HOSTILE_TITLE);
    expect(await page.locator('dd[data-field="title"]').textContent()).toBe(HOSTILE_TITLE);
    expect(await page.title()).toBe(`${HOSTILE_TITLE} · catalogue`);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();

    await page.goto(url('/books?sort=-id&per_page=50'));
    expect(await page.locator(`a[rel="item"][href="${location}"]`).textContent()).toBe(HOSTILE_TITLE);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
  }, 60_000);

  it('sends the security headers on pages, error pages and assets', async () => {
    const page = await (await newContext()).newPage();
    for (const [path, status] of [
      ['/', 200],
      ['/books/1', 200],
      ['/books/987654', 404],
      ['/assets/catalogue.js', 200],
    ] as const) {
      const response = await page.goto(url(path));
      expect(response?.status(), path).toBe(status);
      const headers = response?.headers() ?? {};
      expect(headers['content-security-policy'], path).toContain("default-src 'none'");
      expect(headers['content-security-policy'], path).toContain("script-src 'self'");
      expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['x-frame-options'], path).toBe('DENY');
      expect(headers['referrer-policy'], path).toBeTruthy();
    }
    // The 404 is a page a person can read, with a way home.
    await page.goto(url('/books/987654'));
    expect(await page.locator('[role="alert"] h1').textContent()).toContain('404');
    expect(await page.locator('a[rel="home"]').count()).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a write that another site makes the signed-in browser send (403), changing nothing', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await signIn(page);
    const book = url('/books/2');
    const before = await apiJson<BookDocument>('/books/2');

    // A page on another origin whose form posts to the catalogue: the browser sends the cookie along.
    const other = await startOtherSite(book);
    try {
      await page.goto(`http://localhost:${other.port}/`);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === book && r.request().method() === 'POST'),
        page.locator('button[type="submit"]').click(),
      ]);
      const sent = await response.request().allHeaders();
      expect(sent.cookie).toContain('catalogue_session=');
      expect(sent['sec-fetch-site']).toBe('same-site');
      expect(response.status()).toBe(403);
    } finally {
      other.server.close();
    }

    // The same post, declared cross-site, with the session cookie of this browser.
    const forged = await context.request.post(book, {
      headers: { 'Sec-Fetch-Site': 'cross-site', Accept: 'text/html' },
      form: { _method: 'PATCH', title: 'Hijacked' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);

    // The session itself still works from the catalogue's own pages.
    expect((await apiJson<BookDocument>('/books/2')).title).toBe(before.title);
    await page.goto(book);
    expect(await page.locator('form[rel="edit"]').count()).toBe(1);
  }, 60_000);

  it('fits a phone: no sideways scrolling on the main pages', async () => {
    const context = await newContext({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signIn(page);
    for (const path of ['/', '/books', '/books/1', '/authors', '/authors/1', '/loans', '/books/987654']) {
      await page.goto(url(path));
      const width = await page.evaluate<number>(
        'Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)',
      );
      expect(width, path).toBeLessThanOrEqual(375);
    }
  }, 60_000);
});

describe('a view made for people (script enabled)', () => {
  it("shows each book's author by name, in the lists and on the book, linking to the author", async () => {
    const page = await (await newContext()).newPage();
    const hobbit = present((await apiJson<PageDoc<BookDocument>>('/books?query=hobbit&page=1')).data[0], 'The Hobbit');
    const author = await apiJson<AuthorDocument>(`/authors/${hobbit.author_id}`);
    const link = linkOf(hobbit, 'author');
    const lists = ['/books?query=hobbit', `/authors/${hobbit.author_id}/books`];
    // The name comes with the book (the author link's title) once the data side gives it; until then the
    // view shows the id and a link to the author, as before.
    const named = typeof link.title === 'string';
    if (named) expect(link.title).toBe(author.name);
    for (const path of lists) {
      await page.goto(url(path));
      const result = page.locator('li.result', { hasText: 'The Hobbit' });
      const cell = result.locator('a[rel="author"]');
      expect(await cell.count(), path).toBe(1);
      expect(await cell.getAttribute('href'), path).toBe(`/authors/${hobbit.author_id}`);
      if (named) expect(await cell.textContent(), path).toBe(author.name);
    }
    await page.goto(url(`/books/${hobbit.id}`));
    const own = page.locator('main a[rel="author"]');
    expect(await own.count()).toBe(1);
    if (named) expect(await own.textContent()).toBe(author.name);
    await own.click();
    await page.waitForURL(/\/authors\/\d+$/);
    expect(await text(page, 'h1')).toBe(author.name);
  }, 60_000);

  it('has a search box on top of every book list, in plain words, sending the words and what the page keeps', async () => {
    const page = await (await newContext()).newPage();
    for (const path of ['/books', '/authors/1/books']) {
      await page.goto(url(path));
      const box = page.getByRole('search').getByLabel('Search titles and authors');
      expect(await box.count(), path).toBe(1);
      // On top: above the results.
      const boxTop = (await box.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      expect(boxTop, path).toBeLessThan((await page.locator('ol.results').boundingBox())?.y ?? 0);
    }
    const declaresFacets = controlOf(await apiJson<PageDoc<BookDocument>>('/books?page=1'), 'search').fields.some(
      (f: { name: string }) => f.name === 'facets',
    );
    await page.goto(url('/books'));
    const box = page.getByRole('search').getByLabel('Search titles and authors');
    // An author's name finds their books.
    await box.fill('tolkien');
    await box.press('Enter');
    await page.waitForURL(/query=tolkien/);
    // The words, and the page's size and facets; the relevance order, blank, is left out.
    expect([...new URL(page.url()).searchParams.keys()]).toEqual(
      declaresFacets ? ['query', 'facets', 'per_page'] : ['query', 'per_page'],
    );
    expect(await page.locator('a[rel="item"]', { hasText: 'The Hobbit' }).count()).toBe(1);
    expect(await page.getByRole('search').getByLabel('Search titles and authors').inputValue()).toBe('tolkien');
  }, 60_000);

  it('sorts books by a labelled order chosen from a list, and a table by a column header, reversed on a second click', async () => {
    const page = await (await newContext()).newPage();
    await page.goto(url('/books'));
    const titles = () => page.locator('li.result a[rel="item"]').allTextContents();
    const years = () => page.locator('li.result [data-field="publication_year"]').allTextContents();
    const order = page.getByRole('search').getByLabel('Sort by');
    expect(await order.locator('option').allTextContents()).toEqual([
      'Relevance',
      'Title A\u2013Z',
      'Title Z\u2013A',
      'Newest first',
      'Oldest first',
      'Most available',
    ]);
    await order.selectOption({ label: 'Title A\u2013Z' });
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/sort=title/);
    const ascending = await titles();
    expect(ascending).toEqual([...ascending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(await page.getByRole('search').getByLabel('Sort by').inputValue()).toBe('title');
    await page.getByRole('search').getByLabel('Sort by').selectOption({ label: 'Newest first' });
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/sort=-publication_year/);
    const newest = (await years()).map(Number);
    expect(newest).toEqual([...newest].sort((a, b) => b - a));

    // A table (the authors) sorts by its column headers.
    await page.goto(url('/authors'));
    const names = () => page.locator('td[data-field="name"] a[rel="item"]').allTextContents();
    expect(await page.locator('th[aria-sort]').count()).toBe(0);
    await page.locator('th a', { hasText: /^Name$/ }).click();
    await page.waitForURL(/sort=name/);
    const byName = await names();
    expect(byName).toEqual([...byName].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(await page.locator('th', { hasText: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await page.locator('th a', { hasText: /^Name$/ }).click();
    await page.waitForURL(/sort=-name/);
    const reversed = await names();
    expect(reversed).toEqual([...reversed].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(reversed[0]).not.toBe(byName[0]);
    expect(await page.locator('th', { hasText: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  }, 60_000);

  it('signs in from the header of a page other than the root, stays there, and signs out from any page', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(url('/books/1'));
    expect(await page.locator('main form').count()).toBe(0);
    // The Administrator's library card, given by the JSON API; a person types its number and their PIN.
    const root = await apiJson<{ links: { rel: string; href: string }[] }>('/');
    const me = present(
      root.links.find((link) => link.rel === 'me'),
      'the Administrator',
    ).href;
    expect((await api(me, { method: 'PATCH', body: JSON.stringify({ card_number: '21000000001' }) })).status).toBe(200);
    expect((await api(`${me}/pin`, { method: 'PUT', body: JSON.stringify({ pin: '4826' }) })).status).toBe(200);
    await page.locator('header').getByLabel('Library card').fill('21000000001');
    await page.locator('header').getByLabel('PIN', { exact: true }).fill('4826');
    await page.locator('header').getByRole('button', { name: 'Sign in' }).click();
    await page.locator('header form[rel="logout"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/books/1');
    expect(await text(page, 'header .who')).toBe('Signed in as Administrator');
    expect(await page.locator('main form[rel="edit"]').count()).toBe(1);

    for (const path of ['/authors/1', '/books?sort=title']) {
      await page.goto(url(path));
      expect(await page.locator('header form[rel="logout"]').count(), path).toBe(1);
    }
    await page.locator('header').getByRole('button', { name: 'Sign out' }).click();
    await page.locator('header form[rel="login"]').waitFor();
    expect(await context.cookies()).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/books');
    expect(await page.locator('header .who').count()).toBe(0);
  }, 60_000);

  it('asks before deleting: the real button is behind a disclosure, then the book is gone', async () => {
    const created = await api('/books', {
      method: 'POST',
      body: JSON.stringify({ title: 'A Book to Delete', publication_year: 2001, author_id: 1 }),
    });
    const bookUrl = url(created.headers.get('location') as string);
    const page = await (await newContext()).newPage();
    await signIn(page);
    await page.goto(bookUrl);
    const confirm = page.getByRole('button', { name: 'Yes, delete book' });
    expect(await confirm.isVisible()).toBe(false);
    await page.getByText('Delete book…').click();
    expect(await page.getByText('This cannot be undone.').isVisible()).toBe(true);
    await confirm.click();
    await page.waitForURL(/\/books\?/);
    expect((await api(new URL(bookUrl).pathname)).status).toBe(404);
  }, 60_000);
});

describe('circulation, for a member in the browser (script enabled)', () => {
  /** A member and their token, made through the JSON API by the librarian. */
  async function newMember(name: string): Promise<{ id: number; token: string }> {
    const user = (await (
      await api('/users', { method: 'POST', body: JSON.stringify({ name, role: 'member' }) })
    ).json()) as { id: number };
    const token = (await (await api(`/users/${user.id}/tokens`, { method: 'POST', body: '{}' })).json()) as {
      token: string;
    };
    return { id: user.id, token: token.token };
  }

  it('holds a book that is out, sees their place, borrows it when it is back, renews it until refused', async () => {
    // The librarian's setup: a book whose one copy is lent to someone else.
    const made = await api('/books', {
      method: 'POST',
      body: JSON.stringify({ title: 'A Book Worth Waiting For', publication_year: 2015, author_id: 1 }),
    });
    const { id: bookId } = (await made.json()) as { id: number };
    const other = await newMember('Browser Other');
    const lent = await borrowed(librarian(), bookId, { borrower_id: other.id });
    const reader = await newMember('Browser Reader');

    // Sign in as the member, search from the root and open the book: it is out, and offers a hold.
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(base);
    await typeToken(page, reader.token);
    await page.locator('form[rel="login"] button[type="submit"]').click();
    await page.locator('form[rel="logout"]').waitFor();
    await page.locator('form[rel="search"] [name="query"]').first().fill('worth waiting');
    await page.locator('form[rel="search"] button[type="submit"]').first().click();
    await page.waitForURL(/query=/);
    await page.getByRole('link', { name: 'A Book Worth Waiting For' }).click();
    await page.waitForURL(/\/books\/\d+$/);
    const bookUrl = page.url();
    expect(await text(page, 'dd[data-field="available"]')).toBe('no');
    expect(await text(page, 'dd[data-field="due_at"]')).toBe(lent.due_at);
    expect(await page.locator('form[rel="borrow"]').count()).toBe(0);
    await page.locator('form[rel="hold"] button[type="submit"]').click();

    // The hold's page: waiting, first in line; the book says so too, and links the hold.
    await page.waitForURL(/\/holds\/\d+$/);
    const holdUrl = page.url();
    expect(await text(page, 'dd[data-field="status"]')).toBe('waiting');
    expect(await text(page, 'dd[data-field="position"]')).toBe('1');
    expect(await page.locator('form[rel="cancel"]').count()).toBe(1);
    await page.goto(bookUrl);
    expect(await text(page, 'dd[data-field="hold_position"]')).toBe('1');
    expect(await page.getByRole('link', { name: 'Your hold: number 1 in the queue' }).getAttribute('href')).toBe(
      new URL(holdUrl).pathname,
    );
    expect(await page.locator('main form').count()).toBe(0);

    // The copy comes back at the desk: it is set aside for the member until the hold's time runs out.
    await returned(librarian(), lent.id);
    await page.goto(holdUrl);
    expect(await text(page, 'dd[data-field="status"]')).toBe('ready');
    expect(await page.locator('dd[data-field="ready_until"] time').count()).toBe(1);
    await page.locator('main a[rel="book"]').click();
    await page.waitForURL(bookUrl);
    expect(await text(page, 'dd[data-field="hold_status"]')).toBe('ready');
    await page.locator('form[rel="borrow"] button[type="submit"]').click();

    // The loan: its due date, and a renew button while renewing is allowed (twice, by default).
    await page.waitForURL(/\/loans\/\d+$/);
    const loanUrl = page.url();
    expect(await page.locator('dd[data-field="due_at"] time').count()).toBe(1);
    expect(await text(page, 'dd[data-field="renewals"]')).toBe('0');
    // A second tab keeps the page as it is now, renew button and all.
    const stale = await context.newPage();
    await stale.goto(loanUrl);
    for (const count of ['1', '2']) {
      await page.locator('form[rel="renew"] button[type="submit"]').click();
      await page.locator('dd[data-field="renewals"]', { hasText: count }).waitFor();
      expect(page.url()).toBe(loanUrl);
    }
    // At the limit the button is gone; the stale tab's button, pressed, shows the refusal and why.
    await page.reload();
    expect(await page.locator('form[rel="renew"]').count()).toBe(0);
    expect(await page.locator('form[rel="return"]').count()).toBe(1);
    await stale.locator('form[rel="renew"] button[type="submit"]').click();
    const refusal = stale.locator('form[rel="renew"] .form-error');
    await refusal.waitFor({ state: 'visible' });
    expect(await refusal.textContent()).toMatch(/renewed as often as a loan may be/);
  }, 90_000);
});

describe('My account, from the keyboard alone (script enabled)', () => {
  it('renews a loan, moves a waiting hold to another branch and cancels it, by Tab and Enter', async () => {
    const member = (await (
      await api('/users', { method: 'POST', body: JSON.stringify({ name: 'Keyboard Patron', role: 'member' }) })
    ).json()) as { id: number };
    const token = (
      (await (await api(`/users/${member.id}/tokens`, { method: 'POST', body: '{}' })).json()) as {
        token: string;
      }
    ).token;
    const branch = await api('/branches', {
      method: 'POST',
      body: JSON.stringify({ code: 'kbd', name: 'Keyboard Street' }),
    });
    expect(branch.status).toBe(201);
    const { id: branchId } = (await branch.json()) as { id: number };
    const book = async (title: string) =>
      (
        (await (
          await api('/books', { method: 'POST', body: JSON.stringify({ title, publication_year: 2021, author_id: 1 }) })
        ).json()) as { id: number }
      ).id;
    const lent = await borrowed(librarian(), await book('Keyed Loan'), { borrower_id: member.id });
    const wanted = await book('Keyed Hold');
    await borrowed(librarian(), wanted);
    const hold = await fetch(url(`/books/${wanted}/holds`), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(hold.status).toBe(201);

    const page = await (await newContext()).newPage();
    await page.goto(base);
    // "Sign in with a token" opened from the keyboard, the token typed, Enter.
    await page.locator('header form[rel="login"] summary').focus();
    await page.keyboard.press('Enter');
    await page.locator('header form[rel="login"] [name="token"]').fill(token);
    await page.keyboard.press('Enter');
    await page.locator('header form[rel="logout"]').waitFor();
    await page.locator('a[rel="my_account"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/me$/);
    expect(await page.locator('h2').allTextContents()).toEqual(['Current loans', 'Holds', 'Recent charges']);

    // Renew: the row's button, focused and pressed; the page comes back with the renewal counted.
    const loanRow = page.locator(`tr[data-rel="loans"][data-id="${lent.id}"]`);
    expect(await loanRow.locator('td[data-field="renewals"]').textContent()).toBe('0');
    await loanRow.locator('form[rel="renew"] button').focus();
    await page.keyboard.press('Enter');
    await loanRow.locator('td[data-field="renewals"]', { hasText: '1' }).waitFor();

    // Change the pickup branch: the picker takes a branch's number as typed (branches are not searched by
    // name), Tab to the button, Enter.
    const holdRow = page.locator('tr[data-rel="holds"]');
    await holdRow.locator('form[rel="change_pickup"] input[role="combobox"]').focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(String(branchId));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await holdRow.locator('td[data-field="pickup_branch"]', { hasText: 'Keyboard Street' }).waitFor();
    const moved = (await (await api(`/users/${member.id}/holds?page=1`)).json()) as {
      data: { pickup_branch_id: number }[];
    };
    expect(moved.data[0]?.pickup_branch_id).toBe(branchId);

    // Cancel: the hold leaves the page.
    await holdRow.locator('form[rel="cancel"] button').focus();
    await page.keyboard.press('Enter');
    await page.locator('section.group-holds p.empty').waitFor();
  }, 90_000);
});

describe('accessibility (axe-core)', () => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

  /** Serious and critical violations axe finds on the page (its source injected, so the CSP is bypassed). */
  async function violations(page: Page): Promise<string[]> {
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>(
      'axe.run(document, { resultTypes: ["violations"] })',
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('finds no serious or critical violations on the root, a book list, a book, a loan and My account, for anyone', async () => {
    // A member with a token, and a loan of theirs.
    const created = await api('/users', {
      method: 'POST',
      body: JSON.stringify({ name: 'Axe Member', role: 'member' }),
    });
    const member = (await created.json()) as { id: number };
    const issued = await api(`/users/${member.id}/tokens`, { method: 'POST', body: '{}' });
    const memberToken = ((await issued.json()) as { token: string }).token;
    const lent = await borrow(librarian(), 3, { borrower_id: member.id });
    expect(lent.status).toBe(201);
    const loan = lent.headers.get('location') as string;
    // On their account page a hold too (on a fresh book whose copy the librarian has) and a charge, so that its
    // tables of loans, holds and charges all have rows and buttons.
    const { id: heldBook } = (await (
      await api('/books', {
        method: 'POST',
        body: JSON.stringify({ title: 'Axe Held', publication_year: 2020, author_id: 1 }),
      })
    ).json()) as { id: number };
    expect((await borrow(librarian(), heldBook)).status).toBe(201);
    const hold = await fetch(url(`/books/${heldBook}/holds`), {
      method: 'POST',
      headers: { Authorization: `Bearer ${memberToken}` },
    });
    expect(hold.status).toBe(201);
    const charged = await api(`/users/${member.id}/account/charges`, {
      method: 'POST',
      body: JSON.stringify({ amount: 120, reason: 'Lost card' }),
    });
    expect(charged.status).toBe(201);

    for (const [who, token] of [
      ['anonymous', undefined],
      ['member', memberToken],
      ['librarian', ADMIN_TOKEN],
    ] as const) {
      // axe's source is an inline script, which the policy rightly refuses: these pages only bypass it.
      const page = await (await newContext({ bypassCSP: true })).newPage();
      if (token) {
        await page.goto(base);
        await typeToken(page, token);
        await page.locator('header form[rel="login"] button[type="submit"]').click();
        await page.locator('header form[rel="logout"]').waitFor();
      }
      // My account, signed in: the anonymous caller's is the sign-in page (401).
      for (const path of ['/', '/books', '/books/1', loan, '/me']) {
        await page.goto(url(path));
        expect(await violations(page), `${who} at ${path}`).toEqual([]);
      }
    }
  }, 120_000);
});

describe('a person with JavaScript disabled', () => {
  it('signs in, creates and deletes a book with native form posts, each landing on its result', async () => {
    const context = await newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page);
    expect(new URL(page.url()).pathname).toBe('/');
    expect((await context.cookies())[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    // Create: a POST, then 303 to the new book.
    await page.goto(url('/books'));
    const create = page.locator('form[rel="create"]');
    expect(await create.getAttribute('method')).toBe('post');
    await create.locator('[name="title"]').fill('A Book Posted Without Script');
    await create.locator('[name="publication_year"]').fill('1990');
    await create.locator('[name="author_id"]').fill('1');
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      create.locator('button[type="submit"]').click(),
    ]);
    expect(created.status()).toBe(303);
    await page.waitForURL(/\/books\/\d+$/);
    const bookUrl = page.url();
    expect(await text(page, 'h1')).toBe('A Book Posted Without Script');

    // Edit: a form post with _method=PATCH, then back to the book.
    const edit = page.locator('form[rel="edit"]');
    expect(await edit.locator('input[name="_method"]').getAttribute('value')).toBe('PATCH');
    await edit.locator('[name="title"]').fill('A Book Changed Without Script');
    await edit.locator('button[type="submit"]').click();
    await page.getByRole('heading', { level: 1, name: 'A Book Changed Without Script' }).waitFor();
    expect(page.url()).toBe(bookUrl);

    // A refused edit is a page naming the field.
    await page.locator('form[rel="edit"] [name="title"]').fill('   ');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.locator('form[rel="edit"] button[type="submit"]').click(),
    ]);
    expect(refused.status()).toBe(400);
    await page.locator('[role="alert"] [data-field="title"]').waitFor();
    await page.goto(bookUrl);

    // Delete asks first, without a script too: its button shows once the disclosure is opened…
    const remove = page.locator('form[rel="delete"]');
    expect(await remove.locator('button[type="submit"]').isVisible()).toBe(false);
    await page.locator('details.confirm summary').click();
    expect(await remove.locator('button[type="submit"]').textContent()).toBe('Yes, delete book');
    // …and is a form post with _method=DELETE, then 303 to the books.
    expect(await remove.locator('input[name="_method"]').getAttribute('value')).toBe('DELETE');
    const [deleted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      remove.locator('button[type="submit"]').click(),
    ]);
    expect(deleted.status()).toBe(303);
    await page.waitForURL(/\/books\?page=1/);
    expect(await text(page, 'h1')).toBe('Books');
    expect((await page.goto(bookUrl))?.status()).toBe(404);

    // Sign out with a form post too, from the header of a page other than the root.
    await page.goto(url('/authors'));
    await page.locator('header form[rel="logout"] button[type="submit"]').click();
    await page.locator('form[rel="login"]').waitFor();
    expect(await context.cookies()).toEqual([]);

    // Sign in from the header of a book's page: a form post, then 303, signed in.
    await page.goto(bookUrl.replace(/\d+$/, '1'));
    await typeToken(page, ADMIN_TOKEN);
    await page.locator('header form[rel="login"] button[type="submit"]').click();
    await page.locator('header form[rel="logout"]').waitFor();
    expect(await text(page, 'header .who')).toBe('Signed in as Administrator');
  }, 90_000);

  it('browses by links, and shows a hostile title as text', async () => {
    const page = await (await newContext({ javaScriptEnabled: false })).newPage();
    await page.goto(base);
    await page.locator('a[rel="books"]').click();
    await page.waitForURL(/\/books\?/);
    await page.locator('a[rel="item"]').first().click();
    await page.waitForURL(/\/books\/\d+$/);
    await page.locator('main a[rel="author"]').click();
    await page.waitForURL(/\/authors\/\d+$/);

    await page.goto(url(hostileBook));
    expect(await page.locator('h1').textContent()).toBe(HOSTILE_TITLE);
    await page.goto(url('/books?sort=-id&per_page=50'));
    expect(await page.locator(`a[rel="item"][href="${hostileBook}"]`).textContent()).toBe(HOSTILE_TITLE);
    expect(await page.locator('img').count()).toBe(0);
  }, 60_000);
});
