/**
 * HTTP semantics over the real app: unknown routes, methods and `Allow`, OPTIONS and HEAD, content
 * negotiation, ETags and conditional requests, `Vary`, and the RFC 8288 `Link` header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type AuthorDocument,
  type BookDocument,
  type CollectionDocument,
  type LinkDoc,
  linkHeader,
  type PageDoc,
  type RootDocument,
  type UserDocument,
} from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
let author: number;
let book: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  author = await addAuthor(t, 'Semantics Author');
  book = await addBook(t, 'Semantics Book', 1980, author);
});
afterAll(() => t.close());

/** Links in a stable order, for comparing sets of links. */
const sorted = (links: LinkDoc[]) =>
  [...links].sort((a, b) => a.rel.localeCompare(b.rel) || a.href.localeCompare(b.href));

/** The non-templated links of a JSON document, as `{rel, href}`. */
const bodyLinks = (body: { links: (LinkDoc & { templated?: boolean })[] }) =>
  body.links.filter((l) => !l.templated).map(({ rel, href }) => ({ rel, href }));

const allowOf = (response: Response) =>
  (response.headers.get('allow') ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();

const varyOf = (response: Response) =>
  (response.headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

async function etagOf(path: string): Promise<string> {
  const response = await t.request(path);
  expect(response.status).toBe(200);
  const etag = response.headers.get('etag');
  expect(etag).toMatch(/^"[^"]+"$/);
  return etag as string;
}

async function snapshot(path: string): Promise<{ etag: string | null; body: unknown }> {
  const response = await t.request(path);
  expect(response.status).toBe(200);
  return { etag: response.headers.get('etag'), body: await json<unknown>(response) };
}

/** Every route template with its methods (HEAD comes with GET, OPTIONS everywhere). */
const routes = () => [
  { path: '/', allow: ['GET', 'HEAD', 'OPTIONS'], refused: ['POST', 'PUT', 'DELETE'] },
  { path: '/health', allow: ['GET', 'HEAD', 'OPTIONS'], refused: ['POST'] },
  { path: '/books', allow: ['GET', 'POST', 'HEAD', 'OPTIONS'], refused: ['DELETE', 'PUT', 'PATCH'] },
  { path: `/books/${book}`, allow: ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], refused: ['POST'] },
  { path: `/books/${book}/author`, allow: ['GET', 'HEAD', 'OPTIONS'], refused: ['POST', 'PUT', 'PATCH', 'DELETE'] },
  { path: '/authors', allow: ['GET', 'POST', 'HEAD', 'OPTIONS'], refused: ['DELETE', 'PATCH'] },
  { path: `/authors/${author}`, allow: ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], refused: ['POST'] },
  { path: `/authors/${author}/books`, allow: ['GET', 'HEAD', 'OPTIONS'], refused: ['POST', 'DELETE'] },
];

describe('unknown routes and invalid ids', () => {
  it('an unknown route is 404 in the error shape, whatever the method', async () => {
    for (const path of ['/nowhere', '/book', '/books/1/nothing', `/authors/${author}/books/${book}`, '/api/books']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        await expectError(await t.request(path, { method }), 404);
      }
    }
  });

  it('ids that are not positive integers in int4 range name nothing: 404', async () => {
    for (const id of ['abc', '0', '-1', '01', '1.5', '99999999999', '2147483648']) {
      await expectError(await t.request(`/books/${id}`), 404);
      await expectError(await t.request(`/authors/${id}`), 404);
      await expectError(await t.request(`/books/${id}/author`), 404);
      await expectError(await t.request(`/authors/${id}/books`), 404);
    }
  });
});

describe('methods', () => {
  it('a method a known route does not take is 405 with the exact Allow header', async () => {
    for (const { path, allow, refused } of routes()) {
      for (const method of refused) {
        const response = await t.request(path, { method });
        expect(allowOf(response), `${method} ${path}`).toEqual([...allow].sort());
        await expectError(response, 405);
      }
    }
  });

  it('DELETE /books is 405 with Allow: GET, POST, HEAD, OPTIONS and deletes nothing', async () => {
    const response = await t.request('/books', { method: 'DELETE' });
    expect(allowOf(response)).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    await expectError(response, 405);
    expect((await t.request(`/books/${book}`)).status).toBe(200);
  });

  it('OPTIONS is 204 with the Allow header and no body', async () => {
    for (const { path, allow } of routes()) {
      const response = await t.request(path, { method: 'OPTIONS' });
      expect(response.status, path).toBe(204);
      expect(allowOf(response), path).toEqual([...allow].sort());
      expect(await response.text()).toBe('');
    }
  });
});

describe('HEAD', () => {
  it('on a book: the headers of GET, no body', async () => {
    const get = await t.request(`/books/${book}`);
    const head = await t.request(`/books/${book}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'etag', 'link', 'vary']) {
      expect(head.headers.get(name), name).not.toBeNull();
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
  });

  it('on an author: the headers of GET, no body', async () => {
    const get = await t.request(`/authors/${author}`);
    const head = await t.request(`/authors/${author}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('link')).toBe(get.headers.get('link'));
  });

  it('on a bare collection and on a page: 200, JSON, Link and Vary, no body', async () => {
    for (const path of ['/books', '/authors', `/authors/${author}/books`, '/books?page=1&per_page=5']) {
      const get = await t.request(path);
      const head = await t.request(path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(varyOf(head), path).toContain('accept');
      expect(head.headers.get('link'), path).toBe(get.headers.get('link'));
      expect(await head.text(), path).toBe('');
    }
  });

  it('on a missing book: 404 without a body', async () => {
    const head = await t.request('/books/765432', { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
  });

  it('an invalid listing is refused on HEAD as on GET', async () => {
    const head = await t.request('/books?page=0', { method: 'HEAD' });
    expect(head.status).toBe(400);
    expect(await head.text()).toBe('');
  });
});

describe('content negotiation', () => {
  it('an unsupported Accept is 406 in the error shape', async () => {
    const accepts = ['text/csv', 'application/xml', 'image/png', 'font/*', 'application/json;q=0'];
    for (const accept of accepts) {
      for (const path of ['/', '/books', `/books/${book}`, '/authors', `/authors/${author}`]) {
        await expectError(await t.request(path, { headers: { Accept: accept } }), 406);
      }
    }
  });

  it('a write with an unsupported Accept is 406 and changes nothing', async () => {
    const before = await snapshot(`/books/${book}`);
    const response = await t.send('PATCH', `/books/${book}`, { title: 'Not Acceptable' }, { Accept: 'text/csv' });
    await expectError(response, 406);
    expect(await snapshot(`/books/${book}`)).toEqual(before);
  });

  it('answers JSON for */*, application/*, application/json, a lower-quality JSON, and no Accept', async () => {
    const accepts = [
      '*/*',
      'application/*',
      'application/json',
      'application/json; charset=utf-8',
      'application/json;q=0.5, text/csv;q=1',
      'text/html;q=0.5, application/json',
      undefined,
    ];
    for (const accept of accepts) {
      const response = await t.request(`/books/${book}`, accept === undefined ? {} : { headers: { Accept: accept } });
      expect(response.status, String(accept)).toBe(200);
      expect(response.headers.get('content-type'), String(accept)).toMatch(/^application\/json/);
      expect(await json<BookDocument>(response)).toMatchObject({ id: book, title: 'Semantics Book' });
    }
    // A browser's Accept prefers the HTML view.
    const browser = await t.request(`/books/${book}`, {
      headers: { Accept: 'text/html, application/xhtml+xml, */*;q=0.8' },
    });
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Guard: the request without Accept really has none.
    expect(new Request('http://catalogue.test/').headers.get('accept')).toBeNull();
  });
});

describe('ETag and conditional requests', () => {
  it('every document carries a strong ETag (book, author, root, page); a streamed array has none', async () => {
    for (const path of [
      `/books/${book}`,
      `/authors/${author}`,
      '/',
      '/books?page=1',
      `/authors/${author}/books?page=1`,
    ]) {
      expect(await etagOf(path), path).toMatch(/^"/);
    }
    for (const path of ['/books', '/authors', `/authors/${author}/books`]) {
      const response = await t.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('etag'), path).toBeNull();
    }
  });

  it('a page answers 304 to its ETag until its content changes', async () => {
    const writer = await addAuthor(t, 'Etag Page Author');
    await addBook(t, 'Etag Page First', 2000, writer);
    const path = `/authors/${writer}/books?page=1&per_page=5`;
    const etag = await etagOf(path);
    const unchanged = await t.request(path, { headers: { 'If-None-Match': etag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    await addBook(t, 'Etag Page Second', 2001, writer);
    const changed = await t.request(path, { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await json<PageDoc<BookDocument>>(changed)).meta.total_items).toBe(2);
  });

  it('If-None-Match with the current ETag is 304 without a body, also as W/ and in a list', async () => {
    for (const path of [`/books/${book}`, `/authors/${author}`]) {
      const etag = await etagOf(path);
      for (const condition of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
        const response = await t.request(path, { headers: { 'If-None-Match': condition } });
        expect(response.status, `${path} ${condition}`).toBe(304);
        expect(await response.text()).toBe('');
        expect(response.headers.get('etag')).toBe(etag);
        expect(varyOf(response)).toContain('accept');
      }
      const other = await t.request(path, { headers: { 'If-None-Match': '"1-notthecurrentone"' } });
      expect(other.status).toBe(200);
      expect(other.headers.get('etag')).toBe(etag);
    }
  });

  it('HEAD with a matching If-None-Match is 304 too', async () => {
    const etag = await etagOf(`/books/${book}`);
    const response = await t.request(`/books/${book}`, { method: 'HEAD', headers: { 'If-None-Match': etag } });
    expect(response.status).toBe(304);
  });

  it('each update changes the ETag; the old one no longer gives 304', async () => {
    const id = await addBook(t, 'Etag Changing Book', 1990, author);
    const first = await etagOf(`/books/${id}`);
    const patched = await t.send('PATCH', `/books/${id}`, { publication_year: 1991 });
    expect(patched.status).toBe(200);
    const second = await etagOf(`/books/${id}`);
    expect(second).not.toBe(first);
    expect(patched.headers.get('etag')).toBe(second);
    const put = await t.send('PUT', `/books/${id}`, { title: 'Etag Changed Book' });
    const third = await etagOf(`/books/${id}`);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(put.headers.get('etag')).toBe(third);
    const stale = await t.request(`/books/${id}`, { headers: { 'If-None-Match': first } });
    expect(stale.status).toBe(200);
    expect(await json<BookDocument>(stale)).toMatchObject({ title: 'Etag Changed Book', publication_year: 1991 });

    const writer = await addAuthor(t, 'Etag Changing Author');
    const before = await etagOf(`/authors/${writer}`);
    expect((await t.send('PATCH', `/authors/${writer}`, { name: 'Etag Changed Author' })).status).toBe(200);
    expect(await etagOf(`/authors/${writer}`)).not.toBe(before);
  });

  it.each(['PUT', 'PATCH'])(
    '%s: a stale If-Match answers 412 before the body is looked at (RFC 9110 §13.2.2)',
    async (method) => {
      const id = await addBook(t, `Precondition First ${method}`, 1970, author);
      const path = `/books/${id}`;
      const stale = await etagOf(path);
      expect((await t.send('PATCH', path, { publication_year: 1971 })).status).toBe(200);
      await expectError(await t.send(method, path, { publication_year: 'not a year' }, { 'If-Match': stale }), 412);
      await expectError(await t.send(method, path, '{broken json', { 'If-Match': stale }), 412);
      // With a current tag the body is judged as usual.
      const current = await etagOf(path);
      await expectError(await t.send(method, path, { publication_year: 'not a year' }, { 'If-Match': current }), 400);
    },
  );

  it.each(['PUT', 'PATCH'])(
    '%s with If-Match: the current ETag succeeds, a stale one is 412 and changes nothing',
    async (method) => {
      const id = await addBook(t, `If Match Book ${method}`, 1970, author);
      const path = `/books/${id}`;
      const current = await etagOf(path);
      const ok = await t.send(method, path, { publication_year: 1971 }, { 'If-Match': current });
      expect(ok.status).toBe(200);
      expect(await json<BookDocument>(ok)).toMatchObject({ publication_year: 1971 });

      // `current` is stale now: another update happened since.
      const before = await snapshot(path);
      await expectError(await t.send(method, path, { publication_year: 1999 }, { 'If-Match': current }), 412);
      // If-Match uses the strong comparison: a weak tag never matches.
      const fresh = before.etag as string;
      await expectError(await t.send(method, path, { publication_year: 1999 }, { 'If-Match': `W/${fresh}` }), 412);
      expect(await snapshot(path)).toEqual(before);

      // The ETag answered by a write is good for the next conditional write; a list matches any member.
      const next = await t.send(
        method,
        path,
        { title: `If Match Book ${method} Again` },
        { 'If-Match': `${current}, ${fresh}` },
      );
      expect(next.status).toBe(200);
      const after = await t.send(
        method,
        path,
        { publication_year: 1972 },
        { 'If-Match': next.headers.get('etag') ?? '' },
      );
      expect(after.status).toBe(200);
      expect(await json<BookDocument>(await t.request(path))).toMatchObject({
        title: `If Match Book ${method} Again`,
        publication_year: 1972,
      });
    },
  );

  it('If-Match: * applies the write unconditionally', async () => {
    const id = await addBook(t, 'Star Match Book', 1960, author);
    await t.send('PATCH', `/books/${id}`, { publication_year: 1961 });
    const response = await t.send('PUT', `/books/${id}`, { publication_year: 1962 }, { 'If-Match': '*' });
    expect(response.status).toBe(200);
    expect(await json<BookDocument>(await t.request(`/books/${id}`))).toMatchObject({ publication_year: 1962 });
    const author2 = await addAuthor(t, 'Star Match Author');
    const renamed = await t.send('PATCH', `/authors/${author2}`, { name: 'Star Matched Author' }, { 'If-Match': '*' });
    expect(renamed.status).toBe(200);
  });

  it('If-Match on a book that does not exist is 404', async () => {
    await expectError(await t.send('PATCH', '/books/654321', { title: 'Nobody' }, { 'If-Match': '*' }), 404);
    await expectError(await t.send('PATCH', '/books/654321', { title: 'Nobody' }, { 'If-Match': '"1-abc"' }), 404);
  });

  it('DELETE with a stale If-Match is 412 and the book still exists; with the current one, 204', async () => {
    const id = await addBook(t, 'Conditional Delete Book', 1950, author);
    const path = `/books/${id}`;
    const stale = await etagOf(path);
    await t.send('PATCH', path, { publication_year: 1951 });
    const before = await snapshot(path);
    await expectError(await t.request(path, { method: 'DELETE', headers: { 'If-Match': stale } }), 412);
    expect(await snapshot(path)).toEqual(before);
    const response = await t.request(path, { method: 'DELETE', headers: { 'If-Match': before.etag as string } });
    expect(response.status).toBe(204);
    await expectError(await t.request(path), 404);
  });

  it('authors honour If-Match on PATCH and DELETE', async () => {
    const id = await addAuthor(t, 'Conditional Author');
    const path = `/authors/${id}`;
    const stale = await etagOf(path);
    expect((await t.send('PATCH', path, { name: 'Conditional Author Renamed' }, { 'If-Match': stale })).status).toBe(
      200,
    );
    const before = await snapshot(path);
    await expectError(await t.send('PUT', path, { name: 'Should Not Apply' }, { 'If-Match': stale }), 412);
    await expectError(await t.request(path, { method: 'DELETE', headers: { 'If-Match': stale } }), 412);
    expect(await snapshot(path)).toEqual(before);
    expect((await t.request(path, { method: 'DELETE', headers: { 'If-Match': before.etag as string } })).status).toBe(
      204,
    );
    await expectError(await t.request(path), 404);
  });
});

describe('Vary', () => {
  it('every representation, and every error, varies on Accept, Authorization and Cookie', async () => {
    const responses: [string, Response][] = [
      ['root', await t.request('/')],
      ['book', await t.request(`/books/${book}`)],
      ['author of a book', await t.request(`/books/${book}/author`)],
      ['author', await t.request(`/authors/${author}`)],
      ['books', await t.request('/books')],
      ['books page', await t.request('/books?page=1')],
      ['authors', await t.request('/authors')],
      ['authors page', await t.request('/authors?per_page=3')],
      ['author books', await t.request(`/authors/${author}/books`)],
      ['author books page', await t.request(`/authors/${author}/books?page=1`)],
      ['created', await t.send('POST', '/books', { title: 'Vary Book', publication_year: 2001, author_id: author })],
      ['updated', await t.send('PATCH', `/books/${book}`, { publication_year: 1980 })],
      ['head', await t.request(`/books/${book}`, { method: 'HEAD' })],
    ];
    const errors: [string, Response][] = [
      ['not found', await t.request('/books/999999999')],
      ['bad listing', await t.request('/books?per_page=0')],
      ['HTML not found', await t.request('/nowhere', { headers: { accept: 'text/html' } })],
    ];
    for (const [label, response] of [...responses, ...errors]) {
      expect(varyOf(response), label).toContain('accept');
      // Controls follow the caller, a bearer token's or a browser session's: a cache must not hand one
      // caller's representation to another.
      expect(varyOf(response), label).toContain('authorization');
      expect(varyOf(response), label).toContain('cookie');
    }
    for (const [label, response] of responses) expect(response.status, label).toBeLessThan(300);
    for (const [label, response] of errors) expect(response.status, label).toBeGreaterThanOrEqual(400);
  });
});

describe('Link header', () => {
  it('a book: self, author, collection, copies, (a librarian\u2019s) holds and explain, as in the body', async () => {
    const response = await t.request(`/books/${book}`);
    const links = linkHeader(response, { required: true });
    expect(sorted(links)).toEqual(
      sorted([
        { rel: 'self', href: `/books/${book}` },
        { rel: 'author', href: `/authors/${author}` },
        { rel: 'collection', href: '/books?page=1&per_page=20' },
        { rel: 'copies', href: `/books/${book}/copies?page=1&per_page=20` },
        { rel: 'holds', href: `/books/${book}/holds?page=1&per_page=20` },
        { rel: 'explain', href: `/books/${book}/explain` },
      ]),
    );
    expect(sorted(links)).toEqual(sorted(bodyLinks(await json<BookDocument>(response))));
  });

  it('an author: self, books and collection, as in the body', async () => {
    const response = await t.request(`/authors/${author}`);
    const links = linkHeader(response, { required: true });
    expect(sorted(links)).toEqual(
      sorted([
        { rel: 'self', href: `/authors/${author}` },
        { rel: 'books', href: `/authors/${author}/books?page=1&per_page=20` },
        { rel: 'collection', href: '/authors?page=1&per_page=20' },
      ]),
    );
    expect(sorted(links)).toEqual(sorted(bodyLinks(await json<AuthorDocument>(response))));
  });

  it('the created book carries its links too', async () => {
    const response = await t.send('POST', '/books', {
      title: 'Linked New Book',
      publication_year: 2002,
      author_id: author,
    });
    expect(response.status).toBe(201);
    const created = await json<BookDocument>(response);
    // Beside the documents the write made stale (cache-hints.test.ts).
    const links = linkHeader(response, { required: true }).filter((link) => link.rel !== 'invalidates');
    expect(sorted(links)).toEqual(
      sorted([
        { rel: 'self', href: `/books/${created.id}` },
        { rel: 'author', href: `/authors/${author}` },
        { rel: 'collection', href: '/books?page=1&per_page=20' },
        { rel: 'copies', href: `/books/${created.id}/copies?page=1&per_page=20` },
        { rel: 'holds', href: `/books/${created.id}/holds?page=1&per_page=20` },
        { rel: 'explain', href: `/books/${created.id}/explain` },
      ]),
    );
  });

  it('the root: its non-templated links only (anonymous)', async () => {
    const response = await t.anonymous.request('/');
    const body = await json<RootDocument>(response);
    const links = linkHeader(response, { required: true });
    expect(sorted(links)).toEqual(sorted(bodyLinks(body)));
    expect(links.map((l) => l.rel).sort()).toEqual([
      'authors',
      'books',
      'changes',
      'mcp',
      'oai-pmh',
      'profile',
      'self',
      'service-desc',
      'sru',
    ]);
    expect(links.some((l) => l.href.includes('{'))).toBe(false);
  });

  it('the root: the signed-in librarian\u2019s links too (me, loans, overdue, desk, users)', async () => {
    const [librarian] = await json<CollectionDocument<UserDocument>>(
      await t.request('/users?filter=name:Administrator'),
    );
    expect(librarian).toMatchObject({ name: 'Administrator', role: 'librarian' });
    const response = await t.request('/');
    const body = await json<RootDocument>(response);
    const links = linkHeader(response, { required: true });
    expect(sorted(links)).toEqual(sorted(bodyLinks(body)));
    expect(sorted(links)).toEqual(
      sorted([
        { rel: 'self', href: '/' },
        { rel: 'books', href: '/books?page=1&per_page=20' },
        { rel: 'authors', href: '/authors?page=1&per_page=20' },
        { rel: 'changes', href: '/changes' },
        { rel: 'oai-pmh', href: '/oai' },
        { rel: 'sru', href: '/sru' },
        { rel: 'me', href: `/users/${librarian?.id}` },
        { rel: 'my_account', href: '/me' },
        { rel: 'loans', href: '/loans?page=1&per_page=20' },
        { rel: 'overdue', href: '/loans?filter=status%3Aoverdue&page=1&per_page=20' },
        { rel: 'desk', href: '/desk' },
        { rel: 'users', href: '/users?page=1&per_page=20' },
        { rel: 'branches', href: '/branches?page=1&per_page=20' },
        { rel: 'patron_categories', href: '/patron-categories?page=1&per_page=20' },
        { rel: 'item_types', href: '/item-types?page=1&per_page=20' },
        { rel: 'loan_rules', href: '/loan-rules?page=1&per_page=20' },
        { rel: 'profile', href: '/profile' },
        { rel: 'service-desc', href: '/openapi.json' },
        { rel: 'mcp', href: '/mcp' },
      ]),
    );
  });

  it('a page: self, first, last, prev and next matching the body, carrying the listing parameters', async () => {
    const writer = await addAuthor(t, 'Paged Link Author');
    for (const title of ['Alpha Paged', 'Bravo Paged', 'Charlie Paged']) await addBook(t, title, 2000, writer);
    const base = `/authors/${writer}/books`;
    const at = (page: number) => `${base}?sort=title&page=${page}&per_page=1`;

    const middle = await t.request(at(2));
    expect(middle.status).toBe(200);
    const body = await json<PageDoc<BookDocument>>(middle);
    expect(body.meta).toEqual({ page: 2, per_page: 1, total_pages: 3, total_items: 3 });
    expect(body.data.map((b: { title: string }) => b.title)).toEqual(['Bravo Paged']);
    const links = linkHeader(middle, { required: true });
    // prev, next and last carry keyset cursors (docs/api.md, "Cursors") in place of page numbers.
    const cursor = expect.stringMatching(new RegExp(`^${base}\\?sort=title&per_page=1&cursor=[\\w-]+$`));
    expect(sorted(links)).toEqual(
      sorted([
        { rel: 'self', href: at(2) },
        { rel: 'first', href: at(1) },
        { rel: 'last', href: cursor },
        { rel: 'prev', href: cursor },
        { rel: 'next', href: cursor },
        { rel: 'up', href: `/authors/${writer}` },
      ]),
    );
    expect(sorted(links)).toEqual(sorted(bodyLinks(body)));
    for (const [rel, title] of [
      ['prev', 'Alpha Paged'],
      ['next', 'Charlie Paged'],
      ['last', 'Charlie Paged'],
    ]) {
      const page = await json<PageDoc<BookDocument>>(await t.request(links.find((l) => l.rel === rel)?.href ?? ''));
      expect(
        page.data.map((b: { title: string }) => b.title),
        rel,
      ).toEqual([title]);
    }

    const first = await t.request(at(1));
    const firstLinks = linkHeader(first, { required: true });
    expect(firstLinks.map((l) => l.rel).sort()).toEqual(['first', 'last', 'next', 'self', 'up']);
    expect(sorted(firstLinks)).toEqual(sorted(bodyLinks(await json<PageDoc<BookDocument>>(first))));

    const last = await t.request(at(3));
    const lastLinks = linkHeader(last, { required: true });
    expect(lastLinks.map((l) => l.rel).sort()).toEqual(['first', 'last', 'prev', 'self', 'up']);
    expect(sorted(lastLinks)).toEqual(sorted(bodyLinks(await json<PageDoc<BookDocument>>(last))));
  });

  it('a page of /books: the header matches the body links', async () => {
    const response = await t.request('/books?page=1&per_page=1&sort=-id');
    const body = await json<PageDoc<BookDocument>>(response);
    const links = linkHeader(response, { required: true });
    expect(sorted(links)).toEqual(sorted(bodyLinks(body)));
    expect(links.find((l) => l.rel === 'self')?.href).toBe('/books?sort=-id&page=1&per_page=1');
    const last = await json<PageDoc<BookDocument>>(await t.request(links.find((l) => l.rel === 'last')?.href ?? ''));
    expect(last.meta.page).toBe(body.meta.total_pages);
    expect(last.data).toHaveLength(1);
  });

  it('a bare collection: self and first (and up for an author\u2019s books)', async () => {
    const cases: [path: string, expected: LinkDoc[]][] = [
      [
        '/books',
        [
          { rel: 'self', href: '/books' },
          { rel: 'first', href: '/books?page=1&per_page=20' },
        ],
      ],
      [
        '/books?sort=-title',
        [
          { rel: 'self', href: '/books?sort=-title' },
          { rel: 'first', href: '/books?sort=-title&page=1&per_page=20' },
        ],
      ],
      [
        '/authors',
        [
          { rel: 'self', href: '/authors' },
          { rel: 'first', href: '/authors?page=1&per_page=20' },
        ],
      ],
      [
        `/authors/${author}/books`,
        [
          { rel: 'self', href: `/authors/${author}/books` },
          { rel: 'first', href: `/authors/${author}/books?page=1&per_page=20` },
          { rel: 'up', href: `/authors/${author}` },
        ],
      ],
    ];
    for (const [path, expected] of cases) {
      const response = await t.request(path);
      expect(response.status, path).toBe(200);
      expect(Array.isArray(await json<unknown>(response)), path).toBe(true);
      expect(sorted(linkHeader(response, { required: true })), path).toEqual(sorted(expected));
    }
  });
});
