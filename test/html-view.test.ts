/**
 * The HTML view in-process: negotiation, generic rendering of links and controls as forms, escaping,
 * form posts (typed by the control's fields, `_method` for PUT/PATCH/DELETE), post/redirect/get, the
 * session cookie and its same-site rule, and the security headers. Real Chromium runs in browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  LIBRARIAN_TOKEN,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';

const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' };

let t: TestCatalogue;
let author: number;
let book: number;
let session: string;

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
    expect(second).toContain('<dd data-field="page">2</dd>');
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
    expect(bookPage).not.toContain('<form');
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
    expect(await json(await t.request(location))).toMatchObject({ title: 'Formed Book', publication_year: 1984 });
  });

  it('_method=PATCH and _method=DELETE on form posts act as those methods', async () => {
    const id = await addBook(t, 'Override Me', 1990, author);
    const patched = await t.request(`/books/${id}`, {
      method: 'POST',
      headers: { ...HTML, ...FORM, Cookie: session },
      body: '_method=PATCH&title=Overridden&publication_year=&author_id=',
    });
    expect(patched.status).toBe(303);
    expect(await json(await t.request(`/books/${id}`))).toMatchObject({ title: 'Overridden', publication_year: 1990 });
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
    const root = await json(await t.anonymous.request('/', { headers: { Cookie: cookie.split(';')[0] as string } }));
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
    expect(await json(await t.request(`/books/${book}`))).toMatchObject({ title: 'Html Book' });
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
    const tokens = await json(await t.request(`/users/${member.id}/tokens`));
    for (const token of tokens.data) await t.request(`/users/${member.id}/tokens/${token.id}`, { method: 'DELETE' });
    const response = await t.anonymous.request('/', { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^catalogue_session=; Max-Age=0/);
    expect(Object.keys((await json(response)).controls)).toEqual(['login', 'search']);
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
