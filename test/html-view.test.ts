/**
 * The HTML view in-process: negotiation, generic rendering of links and controls as forms, escaping,
 * form posts (typed by the control's fields, `_method` for PUT/PATCH/DELETE), post/redirect/get, the
 * session cookie and its same-site rule, and the security headers. Real Chromium runs in browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourcePage } from '../src/formats/html/view.js';
import type { Control, Resource } from '../src/hypermedia/model.js';
import type { Rel } from '../src/hypermedia/vocabulary.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  LIBRARIAN_TOKEN,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';
import { borrowed } from './support/circulation.js';
import {
  type BookDocument,
  controlOf,
  type PageDoc,
  type RootDocument,
  type TokenDocument,
} from './support/documents.js';

const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' };

let t: TestCatalogue;
let author: number;
let book: number;
let session: string;

/** The page's `<main>`, without the header. */
const main = (html: string) => html.slice(html.indexOf('<main>'), html.indexOf('</main>'));
/** The page's `<header>`. */
const header = (html: string) => html.slice(html.indexOf('<header>'), html.indexOf('</header>'));
const page = async (path: string, cookie?: string) =>
  (await t.anonymous.request(path, { headers: cookie ? { ...HTML, Cookie: cookie } : HTML })).text();

/** Signs a browser in and answers its cookie header. */
async function signIn(token: string): Promise<string> {
  const response = await t.anonymous.request('/session', {
    method: 'POST',
    headers: { ...HTML, ...FORM },
    body: new URLSearchParams({ token }).toString(),
  });
  expect(response.status).toBe(303);
  const cookie = response.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] as string;
}

beforeAll(async () => {
  t = await openTestCatalogue();
  author = await addAuthor(t, 'Ursula Html');
  book = await addBook(t, 'Html Book', 1971, author);
  session = await signIn(LIBRARIAN_TOKEN);
});
afterAll(() => t.close());

describe('negotiation', () => {
  it('a browser gets HTML at the same URL where an API client gets JSON', async () => {
    const page = await t.anonymous.request(`/books/${book}`, { headers: HTML });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>Html Book</h1>');
    const api = await t.anonymous.request(`/books/${book}`);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('collections come a page at a time in HTML, with paging links, even without paging parameters', async () => {
    for (let i = 0; i < 22; i++) await addBook(t, `Paged Html ${String(i).padStart(2, '0')}`, 2000, author);
    const html = await (await t.anonymous.request('/books', { headers: HTML })).text();
    expect(html.match(/<a rel="item"/g)).toHaveLength(20);
    const next = html.match(/<a rel="next" href="(\/books\?per_page=20&amp;cursor=[\w-]+)">/)?.[1];
    expect(next).toBeDefined();
    const second = await (await t.anonymous.request((next ?? '').replaceAll('&amp;', '&'), { headers: HTML })).text();
    expect(second.match(/<a rel="item"/g)).toHaveLength(3);
    expect(second).toContain('page <span data-field="page">2</span> of');
  });

  it('errors are pages naming the field that is wrong', async () => {
    const response = await t.request(`/books/${book}`, {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: session },
      body: '_method=PATCH&publication_year=99999',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toMatch(
      /<li data-field="publication_year"><strong>publication_year<\/strong> must be at most 2100<\/li>/,
    );
  });
});

describe('links and controls as HTML', () => {
  it('links are <a rel> and controls are <form rel> with inputs typed from the fields', async () => {
    const html = await (await t.request(`/books/${book}`, { headers: { ...HTML, Cookie: session } })).text();
    expect(html).toContain(`<a rel="author" href="/authors/${author}">`);
    expect(html).toMatch(/<form rel="edit" method="post" action="\/books\/\d+"/);
    expect(html).toContain('<input type="hidden" name="_method" value="PATCH"/>');
    expect(html).toMatch(/name="publication_year"[^>]*type="number"[^>]*min="-3000" max="2100" value="1971"/);
    expect(html).toMatch(/name="title"[^>]*type="text" maxlength="500" value="Html Book"/);
    expect(html).toMatch(/<form rel="borrow" method="post" action="\/books\/\d+\/borrow"/);
    expect(html).toMatch(/<form rel="delete"/);
  });

  it('an anonymous visitor sees no write forms, only search and sign-in', async () => {
    const bookPage = await (await t.anonymous.request(`/books/${book}`, { headers: HTML })).text();
    expect(main(bookPage)).not.toContain('<form');
    const root = await (await t.anonymous.request('/', { headers: HTML })).text();
    expect([...root.matchAll(/<form rel="(\w+)"/g)].map((m) => m[1])).toEqual(['login', 'search']);
  });

  it('escapes every value: a hostile title is text', async () => {
    const hostile = await addBook(t, '<img src=x onerror="alert(1)">', 1999, author);
    const html = await (await t.anonymous.request(`/books/${hostile}`, { headers: HTML })).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('serves its own stylesheet and script, and a strict policy forbids anything else', async () => {
    const response = await t.anonymous.request('/', { headers: HTML });
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    const html = await response.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    for (const [path, type] of [
      ['/assets/catalogue.css', 'text/css'],
      ['/assets/catalogue.js', 'text/javascript'],
    ]) {
      const asset = await t.anonymous.request(path as string);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain(type as string);
    }
  });
});

describe('form posts', () => {
  it('create: the form values are typed by the control fields, and the browser is sent to the new book (303)', async () => {
    const response = await t.request('/books', {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: session },
      body: new URLSearchParams({
        title: 'Formed Book',
        publication_year: '1984',
        author_id: String(author),
      }).toString(),
    });
    expect(response.status).toBe(303);
    const location = response.headers.get('location') as string;
    expect(location).toMatch(/^\/books\/\d+$/);
    expect(await json<BookDocument>(await t.request(location))).toMatchObject({
      title: 'Formed Book',
      publication_year: 1984,
    });
  });

  it('_method=PATCH and _method=DELETE on form posts act as those methods', async () => {
    const id = await addBook(t, 'Override Me', 1990, author);
    const patched = await t.request(`/books/${id}`, {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: session },
      body: '_method=PATCH&title=Overridden&publication_year=&author_id=',
    });
    expect(patched.status).toBe(303);
    expect(await json<BookDocument>(await t.request(`/books/${id}`))).toMatchObject({
      title: 'Overridden',
      publication_year: 1990,
    });
    const deleted = await t.request(`/books/${id}`, {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: session },
      body: '_method=DELETE',
    });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/books?page=1&per_page=20');
    expect((await t.request(`/books/${id}`)).status).toBe(404);
  });

  it('_method means nothing outside a form post: JSON and query strings keep their real method', async () => {
    const id = await addBook(t, 'Not Overridden', 1990, author);
    const jsonPost = await t.send('POST', `/books/${id}`, { _method: 'DELETE' });
    expect(jsonPost.status).toBe(405);
    const queryPost = await t.request(`/books/${id}?_method=DELETE`, { method: 'POST' });
    expect(queryPost.status).toBe(405);
    expect((await t.request(`/books/${id}`)).status).toBe(200);
  });
});

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Strict cookie for the path of the whole catalogue; signing out clears it', async () => {
    const member = await addUser(t, 'Cookie Member');
    const response = await t.anonymous.request('/session', {
      method: 'POST',
      headers: { ...FORM },
      body: new URLSearchParams({ token: member.token }).toString(),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') as string;
    expect(cookie).toMatch(/^catalogue_session=cat_[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const root = await json<RootDocument>(
      await t.anonymous.request('/', { headers: { Cookie: cookie.split(';')[0] as string } }),
    );
    expect(Object.keys(root.controls)).toEqual(['logout', 'search']);
    expect(root.links.map((l: { rel: string }) => l.rel)).toContain('me');
    const out = await t.anonymous.request('/session', {
      method: 'DELETE',
      headers: { Cookie: cookie.split(';')[0] as string, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^catalogue_session=; Max-Age=0/);
  });

  it('refuses a token that is not valid, setting no cookie', async () => {
    const response = await t.anonymous.request('/session', {
      method: 'POST',
      headers: FORM,
      body: 'token=cat_not-a-real-token',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('a cookie-authenticated write from another site is refused (403) and changes nothing', async () => {
    const crossSite: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example' },
    ];
    for (const headers of crossSite) {
      const response = await t.anonymous.request(`/books/${book}`, {
        method: 'POST',
        headers: { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: session, ...headers },
        body: '_method=PATCH&title=Hijacked',
      });
      expect(response.status).toBe(403);
    }
    expect(await json<BookDocument>(await t.request(`/books/${book}`))).toMatchObject({ title: 'Html Book' });
  });

  it('a bearer-token client is unaffected by the same-site rule', async () => {
    const response = await t.send(
      'PATCH',
      `/books/${book}`,
      { publication_year: 1972 },
      { 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(response.status).toBe(200);
  });

  it('a session whose token was revoked is simply signed out', async () => {
    const member = await addUser(t, 'Revoked Member');
    const cookie = await signIn(member.token);
    const tokens = await json<PageDoc<TokenDocument>>(await t.request(`/users/${member.id}/tokens`));
    for (const token of tokens.data) await t.request(`/users/${member.id}/tokens/${token.id}`, { method: 'DELETE' });
    const response = await t.anonymous.request('/', { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^catalogue_session=; Max-Age=0/);
    expect(Object.keys((await json<RootDocument>(response)).controls)).toEqual(['login', 'search']);
  });
});

describe('search forms', () => {
  it('an HTML search form sends every field, filled or not: empty ones mean "not given"', async () => {
    const query = '?query=html&author=&filter=&sort=&page=&per_page=20&fields=';
    const page = await t.anonymous.request(`/books${query}`, { headers: HTML });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Html Book');
    // An API client sending an empty parameter still hears that it is invalid.
    expect((await t.anonymous.request(`/books${query}`)).status).toBe(400);
  });
});

describe('answers shown only once', () => {
  it('a token created from a form is shown on the page that answers, not lost to a redirect', async () => {
    const member = await addUser(t, 'Form Token Member');
    const response = await t.request(`/users/${member.id}/tokens`, {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: session },
      body: 'name=laptop',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    const secret = /<dd data-field="token">(cat_[\w-]{43})<\/dd>/.exec(html)?.[1];
    expect(secret).toBeDefined();
    expect((await t.as(secret as string).request(`/users/${member.id}`)).status).toBe(200);
  });
});

describe('a view made for people', () => {
  /** A book as a renderer builds it, its `author` link titled with the name or not. */
  const bookResource = (authorTitle?: string): Resource => ({
    kind: 'book',
    state: { id: 7, title: 'Named', publication_year: 1969, author_id: 3, available: true, due_at: null },
    links: [
      { rel: 'self', href: '/books/7' },
      { rel: 'author', href: '/authors/3', ...(authorTitle !== undefined && { title: authorTitle }) },
      { rel: 'collection', href: '/books?page=1' },
    ],
    controls: [],
  });
  const listOf = (item: Resource): Resource => ({
    kind: 'book-page',
    state: { meta: { page: 1 } },
    links: [{ rel: 'self', href: '/books?page=1' }],
    controls: [],
    items: [item],
  });

  it("lists and a book's page show the author's name, linked, when the author link carries it", () => {
    const list = main(resourcePage(listOf(bookResource('Ursula <Le> Guin')), { home: '/' }));
    expect(list).toContain(
      '<p class="facts">by <a rel="author" href="/authors/3">Ursula &lt;Le&gt; Guin</a>, <span data-field="publication_year">1969</span></p>',
    );
    expect(list).not.toContain('Author id');
    expect(list.match(/rel="author"/g)).toHaveLength(1);
    // A list drawn as a table (a page of anything but books) names the column and links the name.
    const table = main(resourcePage({ ...listOf(bookResource('Ursula <Le> Guin')), kind: 'hold-page' }, { home: '/' }));
    expect(table).toContain('<th scope="col">Author</th>');
    expect(table).toContain(
      '<td data-field="author_id"><a rel="author" href="/authors/3">Ursula &lt;Le&gt; Guin</a></td>',
    );
    const own = main(resourcePage(bookResource('Ursula Le Guin'), { home: '/' }));
    expect(own).toContain(
      '<dt>Author</dt><dd data-field="author_id"><a rel="author" href="/authors/3">Ursula Le Guin</a></dd>',
    );
    expect(own.match(/rel="author"/g)).toHaveLength(1);
  });

  it('without a title on the author link, the link to the author stays', () => {
    const list = main(resourcePage(listOf(bookResource()), { home: '/' }));
    expect(list).toContain('by <a rel="author" href="/authors/3">the author</a>');
    const table = main(resourcePage({ ...listOf(bookResource()), kind: 'hold-page' }, { home: '/' }));
    expect(table).toContain('Author id');
    expect(table).toContain('<td data-field="author_id">3</td>');
    expect(table).toContain('<a rel="author" href="/authors/3">Author</a>');
  });

  it('every book list has a search box on top, in plain words, with the labelled orders of the control', async () => {
    for (const path of ['/books', `/authors/${author}/books`, '/books?query=html']) {
      const html = main(await page(path));
      const box = html.match(
        /<search><form class="searchbox" id="patron-search" method="get" action="([^"]+)"[^>]*>(.*?)<\/form><\/search>/,
      );
      expect(box, path).not.toBeNull();
      expect(html.indexOf('<search>'), path).toBeLessThan(html.indexOf('<ol class="results">'));
      expect(box?.[2]).toContain('<label for="searchbox-query">Search titles and authors</label>');
      expect(box?.[2]).toContain('id="searchbox-query" name="query"');
      expect(box?.[2]).toContain('<label for="searchbox-sort">Sort by</label>');
      // The orders are the control's `sort` choices, by their labels: no field,-field to type.
      const control = controlOf(
        await json<PageDoc<BookDocument>>(await t.request(path.includes('?') ? `${path}&page=1` : `${path}?page=1`)),
        'search',
      );
      const sortField = control.fields.find((f: { name: string }) => f.name === 'sort');
      const options = [...(box?.[2] ?? '').matchAll(/<option value="([^"]*)"[^>]*>([^<]+)<\/option>/g)];
      expect(options.map((m) => ({ value: m[1], prompt: m[2] }))).toEqual(sortField?.options);
      // What the form sends besides the words and the order: the page size, and the facets the page asks
      // for where the control takes them.
      const hidden = [...(box?.[2] ?? '').matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)];
      const facets = control.fields.some((f: { name: string }) => f.name === 'facets');
      expect(Object.fromEntries(hidden.map((m) => [m[1], m[2]]))).toEqual({
        ...(facets && { facets: 'author,decade,available,language,subject' }),
        per_page: '20',
      });
    }
    expect(main(await page('/books?query=html'))).toMatch(/name="query" value="html"/);
  });

  it('the current order is the one selected; an order given otherwise is kept as it is', async () => {
    const byYear = main(await page('/books?query=paged&sort=-publication_year'));
    expect(byYear).toContain('<option value="-publication_year" selected="">Newest first</option>');
    expect(byYear.match(/ selected=""/g)).toHaveLength(1);
    const relevance = main(await page('/books?query=paged'));
    expect(relevance).toContain('<option value="" selected="">Relevance</option>');
    const free = main(await page('/books?query=paged&sort=title,-id'));
    expect(free).toContain('<option value="title,-id" selected="">title,-id</option>');
  });

  it('a new search keeps what narrows the page (filters, author) and its page size', async () => {
    const html = main(await page('/books?query=paged&filter=publication_year:2000&author=html&per_page=5'));
    const form = html.match(/<form class="searchbox".*?<\/form>/)?.[0] ?? '';
    expect(form).toContain('<input type="hidden" name="filter" value="publication_year:2000" data-narrowing=""/>');
    expect(form).toContain('<input type="hidden" name="author" value="html" data-narrowing=""/>');
    expect(form).toContain('<input type="hidden" name="per_page" value="5"/>');
  });

  it('sortable column headers of a table sort, a second click reverses, and the current sort is marked', async () => {
    for (const name of ['Column Aster', 'Column Birch', 'Column Cedar']) await addAuthor(t, name);
    const unsorted = main(await page('/authors?query=column&per_page=5'));
    expect(unsorted).toContain(
      '<th scope="col"><a href="/authors?query=column&amp;sort=name&amp;page=1&amp;per_page=5" class="sort">Name</a></th>',
    );
    expect(unsorted).not.toContain('aria-sort');
    const byName = main(await page('/authors?query=column&per_page=5&sort=name'));
    expect(byName).toContain(
      '<th scope="col" aria-sort="ascending"><a href="/authors?query=column&amp;sort=-name&amp;page=1&amp;per_page=5" class="sort" data-order="ascending">Name</a></th>',
    );
    const reversed = main(await page('/authors?query=column&per_page=5&sort=-name'));
    expect(reversed).toMatch(/aria-sort="descending"><a href="[^"]*sort=name&amp;[^"]*"/);
    // The header's link is a listing the service accepts, in that order.
    const names = async (path: string) =>
      [...(await page(path)).matchAll(/<a rel="item" href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    const href = /aria-sort="ascending"><a href="([^"]+)"/.exec(byName)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(await names(href)).toEqual(['Column Cedar', 'Column Birch', 'Column Aster']);
  });

  it('every page has sign-in in its header for an anonymous visitor, and who is signed in and sign-out for a session', async () => {
    for (const path of ['/', '/books', `/books/${book}`, `/authors/${author}`, '/books/987654']) {
      const anonymous = header(await page(path));
      expect(anonymous, path).toMatch(/<form rel="login" method="post" action="\/session"/);
      expect(anonymous, path).toContain('<label for="header-login-token">Token');
      expect(anonymous, path).not.toContain('rel="logout"');
      const signedIn = header(await page(path, session));
      expect(signedIn, path).toMatch(/Signed in as <a href="\/users\/\d+">[^<]+<\/a>/);
      expect(signedIn, path).toMatch(
        /<form rel="logout" method="post" action="\/session"[^>]*><input type="hidden" name="_method" value="DELETE"\/>/,
      );
      expect(signedIn, path).not.toContain('rel="login"');
    }
    // The root shows each session form once, in the header.
    expect((await page('/')).match(/<form rel="login"/g)).toHaveLength(1);
    // A bearer-token caller has no session to end: the header names them, with no sign-out.
    const bearer = header(await (await t.request('/books', { headers: HTML })).text());
    expect(bearer).toContain('Signed in as');
    expect(bearer).not.toContain('<form');
  });

  it('signing out from the header form of any page ends the session', async () => {
    const cookie = await signIn(LIBRARIAN_TOKEN);
    const response = await t.anonymous.request('/session', {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: cookie },
      body: '_method=DELETE',
    });
    expect(response.status).toBe(303);
    expect(header(await page(`/books/${book}`, cookie))).toContain('rel="login"');
  });

  it('a person sees one edit form where the resource offers update and edit; generic clients keep both', async () => {
    const html = main(await page(`/books/${book}`, session));
    expect(html).toMatch(/<form rel="edit"/);
    expect(html).not.toMatch(/<form rel="update"/);
    const body = await json<BookDocument>(await t.request(`/books/${book}`));
    const names = Array.isArray(body.controls)
      ? body.controls.map((c: { name: string }) => c.name)
      : Object.keys(body.controls);
    expect(names).toEqual(expect.arrayContaining(['update', 'edit']));
  });

  it('delete asks first: its button is inside a disclosure that says it cannot be undone', async () => {
    const html = main(await page(`/books/${book}`, session));
    expect(html).toMatch(
      /<details class="confirm"><summary>Delete book…<\/summary><form rel="delete" method="post" action="\/books\/\d+"[^>]*><input type="hidden" name="_method" value="DELETE"\/><p>This cannot be undone.<\/p>.*?<button type="submit" class="danger">Yes, delete book<\/button><\/form><\/details>/,
    );
  });

  it('the search form tucks exact matches, sparse fields and facets under "More options"', async () => {
    const html = main(await page('/books'));
    const search = html.match(/<form rel="search".*?<\/form>/)?.[0] ?? '';
    const more = search.match(/<details class="more"><summary>More options<\/summary>(.*?)<\/details>/)?.[1] ?? '';
    expect([...more.matchAll(/ name="(\w+)"/g)].map((m) => m[1])).toEqual(['filter', 'fields', 'facets']);
    expect(search.replace(more, '')).not.toMatch(/name="(filter|fields)"/);
  });

  it('an author field is a number box with a lookup link that the script turns into a picker', async () => {
    const html = main(await page('/books', session));
    const field = html.match(/<p class="field"><label for="control-create-author_id">.*?<\/p>/)?.[0] ?? '';
    expect(field).toMatch(
      /<input id="control-create-author_id" name="author_id" required="" data-type="integer" type="number"/,
    );
    expect(field).toContain(
      'data-options="/authors?fields=id%2Cname" data-option-value="id" data-option-prompt="name"',
    );
    expect(field).toContain('<a class="choices" href="/authors?fields=id%2Cname"');
  });
});

describe('the patron search page', () => {
  /** A page of books as the renderers build it, with what a search may add (facets, a correction). */
  const searchPage = (extra: Partial<Resource> = {}): Resource => ({
    kind: 'book-page',
    state: { meta: { page: 1, per_page: 20, total_pages: 1, total_items: 1 } },
    links: [{ rel: 'self', href: '/books?query=emma&page=1&per_page=20' }],
    controls: [
      {
        name: 'search',
        href: '/books',
        method: 'GET',
        title: 'Search books',
        fields: [
          { name: 'query', type: 'string', required: false, title: 'Search titles and authors' },
          { name: 'facets', type: 'string', required: false, title: 'Facets to count' },
          { name: 'per_page', type: 'integer', required: false, value: 20 },
        ],
      },
    ],
    items: [
      {
        kind: 'book',
        state: { id: 4, title: 'Emma', publication_year: 1815, available: true, copies_total: 3, copies_available: 2 },
        links: [
          { rel: 'self', href: '/books/4' },
          { rel: 'author', href: '/authors/1', title: 'Jane Austen' },
        ],
        controls: [],
      },
    ],
    ...extra,
  });
  const facets: Resource['facets'] = [
    {
      name: 'decade',
      title: 'Decade',
      values: [
        { value: '1810', label: '1810s', count: 6, chosen: true, href: '/books?query=emma&per_page=20' },
        { value: '1870', label: '1870s', count: 1, chosen: false, href: '/books?filter=decade:1870' },
      ],
    },
    {
      name: 'available',
      title: 'Availability',
      estimated: true,
      values: [{ value: 'true', label: 'On the shelf', count: 5, chosen: false, href: '/books?filter=available:true' }],
    },
  ];

  it('shows facets in a sidebar with counts, each a link to the narrowed listing; chosen ones as removable chips', () => {
    const html = main(resourcePage(searchPage({ facets }), { home: '/' }));
    const sidebar = html.match(/<nav class="facets" aria-labelledby="facets-title">(.*?)<\/nav>/)?.[1] ?? '';
    expect(sidebar).toContain('<h2 id="facets-title">Narrow your search</h2>');
    // The chosen decade: a chip whose link is the listing without it, named for what it does.
    expect(sidebar).toContain(
      '<ul class="chips" aria-label="Chosen"><li><a rel="facet" href="/books?query=emma&amp;per_page=20" data-chosen="" aria-label="Remove Decade: 1810s">Decade: 1810s<span aria-hidden="true"> ×</span></a></li></ul>',
    );
    expect(sidebar).toContain('<span class="chosen" aria-current="true">1810s</span> <span class="count">6</span>');
    expect(sidebar).toContain('<a rel="facet" href="/books?filter=decade:1870">1870s</a> <span class="count">1</span>');
    // Estimated counts say so.
    expect(sidebar).toContain('On the shelf</a> <span class="count">≈5</span>');
    expect(sidebar).toContain('<p class="estimated">Counts are estimates.</p>');
    // The sidebar sits beside the results, after the search box.
    expect(html.indexOf('<search>')).toBeLessThan(html.indexOf('<nav class="facets"'));
    expect(html.indexOf('<nav class="facets"')).toBeLessThan(html.indexOf('<ol class="results">'));
  });

  it('asks for the facets it shows: the form carries them where the control takes them, and a button asks', () => {
    const html = main(resourcePage(searchPage(), { home: '/' }));
    expect(html).toContain('<input type="hidden" name="facets" value="author,decade,available,language,subject"/>');
    expect(html).toContain('<div class="facets"><button type="submit" form="patron-search" class="secondary">');
    const without = searchPage();
    without.controls = [
      { ...(without.controls[0] as Control), fields: (without.controls[0] as Control).fields.slice(0, 1) },
    ];
    const plain = main(resourcePage(without, { home: '/' }));
    expect(plain).not.toContain('name="facets"');
    expect(plain).not.toContain('class="facets"');
  });

  it('shows "did you mean" from the page\u2019s correction link, titled with the corrected words', () => {
    const corrected = searchPage();
    corrected.links.push({ rel: 'correction' as Rel, href: '/books?query=emma&page=1', title: 'emma' });
    const html = main(resourcePage(corrected, { home: '/' }));
    expect(html).toContain(
      '<p class="correction">Did you mean <a rel="correction" href="/books?query=emma&amp;page=1">emma</a>?</p>',
    );
    expect(html.indexOf('class="correction"')).toBeLessThan(html.indexOf('<ol class="results">'));
    expect(main(resourcePage(searchPage(), { home: '/' }))).not.toContain('Did you mean');
  });

  it('names the suggestions template, from the root\u2019s link, for the script to expand', () => {
    const listing = {
      sort: {},
      narrowing: [],
      suggestions: { rel: 'suggestions' as Rel, href: '/suggestions{?query}', templated: true },
    };
    const html = main(resourcePage(searchPage(), { home: '/', listing }));
    expect(html).toMatch(
      /<input type="search" id="searchbox-query" name="query"[^>]* data-suggestions="\/suggestions\{\?query\}"\/>/,
    );
    expect(main(resourcePage(searchPage(), { home: '/', listing: { sort: {}, narrowing: [] } }))).not.toContain(
      'data-suggestions',
    );
  });

  it('the page names the root\u2019s suggestions link exactly when the root offers one', async () => {
    const root = await json<RootDocument>(await t.anonymous.request('/'));
    const template = root.links.find((l: { rel: string }) => l.rel === 'suggestions')?.href;
    const html = main(await page('/books'));
    if (template === undefined) expect(html).not.toContain('data-suggestions');
    else expect(html).toContain(`data-suggestions="${template}"`);
  });

  it('each result links to its book and says whether it is on the shelf, or all out and when it is due back', async () => {
    const out = await addBook(t, 'Availability Out', 1990, author);
    const shelf = await addBook(t, 'Availability Shelf', 1991, author);
    const loan = await borrowed(t, out);
    const html = main(await page('/books?query=availability'));
    const result = (id: number) =>
      html.match(new RegExp(`<li class="result"><h3><a rel="item" href="/books/${id}">.*?</li>`))?.[0] ?? '';
    const due = String(loan.due_at);
    expect(result(out)).toContain(
      `<p class="availability" data-available="false">All out, due back <time datetime="${due}">${due.slice(0, 10)}</time></p>`,
    );
    expect(result(shelf)).toContain('<p class="availability" data-available="true">On the shelf</p>');
    // The book's page is where borrowing lives.
    expect(await page(`/books/${shelf}`, session)).toMatch(/<form rel="borrow"/);
    // Several copies: how many are in.
    expect(main(resourcePage(searchPage(), { home: '/' }))).toContain('On the shelf (2 of 3 copies)');
  });

  it('pages by the page\u2019s links only; every parameter stays reachable in the full form', async () => {
    const html = main(await page('/books?query=paged&per_page=5'));
    expect(html).toMatch(/<nav class="pager" aria-label="Pages"><a rel="first" href="[^"]+">« First<\/a>/);
    expect(html).toMatch(/<a rel="next" href="\/books\?query=paged&amp;per_page=5&amp;cursor=[\w-]+">Next ›<\/a>/);
    const [outside, details] = html.split('<details class="all-parameters"><summary>All search parameters</summary>');
    expect(outside).not.toMatch(/name="(page|cursor)"/);
    const full = details?.match(/<form rel="search".*?<\/form>/)?.[0] ?? '';
    const control = controlOf(
      await json<PageDoc<BookDocument>>(await t.request('/books?query=paged&per_page=5')),
      'search',
    );
    expect([...full.matchAll(/ name="(\w+)"/g)].map((m) => m[1]).sort()).toEqual(
      control.fields.map((f: { name: string }) => f.name).sort(),
    );
    expect(html).not.toContain('<table>');
  });

  it('shows what the listing answers: its facets as the JSON has them, and its correction', async () => {
    // Whatever the catalogue answers for these searches, the page shows the same facets and correction.
    for (const path of ['/books?query=paged', '/books?query=pagd', `/authors/${author}/books?query=availability`]) {
      const declares = controlOf(
        await json<PageDoc<BookDocument>>(await t.request(`${path}&page=1`)),
        'search',
      ).fields.some((f: { name: string }) => f.name === 'facets');
      const asked = declares ? `${path}&facets=author,decade,available&per_page=20` : `${path}&per_page=20`;
      const body = await json<PageDoc<BookDocument>>(await t.anonymous.request(asked));
      const html = main(await page(asked));
      for (const facet of body.facets ?? []) {
        for (const value of facet.values) {
          const href = value.href.replaceAll('&', '&amp;');
          if (value.chosen) expect(html).toContain(`aria-label="Remove ${facet.title}: ${value.label}"`);
          else expect(html).toContain(`<a rel="facet" href="${href}">${value.label}</a> <span class="count">`);
        }
      }
      const correction = body.links.find((l: { rel: string }) => l.rel === 'correction');
      if (correction)
        expect(html).toContain(`Did you mean <a rel="correction" href="${correction.href.replaceAll('&', '&amp;')}">`);
      else expect(html).not.toContain('Did you mean');
    }
  });
});
