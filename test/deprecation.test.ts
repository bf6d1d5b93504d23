/**
 * Evolution without versions: a rel or control marked deprecated in the vocabulary is announced in every
 * response that carries it, with `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `deprecation` link,
 * and flagged in the profile and the OpenAPI document. The app is given a vocabulary from `deprecate()`,
 * so no real name is retired; the catalogue's own vocabulary deprecates nothing today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { type Deprecation, deprecate, type Vocabulary, vocabulary } from '../src/hypermedia/vocabulary.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type BookDocument,
  controlOf,
  type LoanDocument,
  linkHeader,
  type OpenApiDocument,
  type ProfileDocument,
  present,
} from './support/documents.js';

const borrowRetired: Deprecation = {
  since: '2026-01-01',
  sunset: '2027-01-01',
  docs: 'https://example.org/docs/borrowing-moves',
};
const authorRetired: Deprecation = { since: '2025-06-01', docs: '/docs/author-link' };

let t: TestCatalogue;
let bookId: number;
let authorId: number;
let member: { id: number; token: string };

beforeAll(async () => {
  t = await openTestCatalogue();
  authorId = await addAuthor(t, 'Ursula Obsoleta');
  bookId = await addBook(t, 'Sunset Boulevard Stories', 1950, authorId);
  member = await addUser(t, 'Dora Deprecata');
});
afterAll(() => t.close());

/** The real app on the test database (made at the first request), speaking the given vocabulary. */
function appWith(words: Vocabulary) {
  let app: ReturnType<typeof createApp> | undefined;
  return (path: string, token?: string, init: RequestInit = {}) => {
    app ??= createApp({ database: t.database, vocabulary: words });
    return app.request(path, {
      ...init,
      headers: { ...(token && { Authorization: `Bearer ${token}` }), ...(init.headers as Record<string, string>) },
    });
  };
}

/** The rels named in a `Link` header with this target. */
const linkRels = (response: Response, href: string) =>
  linkHeader(response)
    .filter((link) => link.href === href)
    .map((link) => link.rel);

describe('a deprecated control', () => {
  const request = appWith(deprecate(vocabulary, { control: 'borrow' }, borrowRetired));

  it('is announced in a response that offers it: Deprecation, Sunset and a deprecation link', async () => {
    const response = await request(`/books/${bookId}`, member.token);
    expect(response.status).toBe(200);
    expect(Object.keys((await json<BookDocument>(response)).controls)).toContain('borrow');
    expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`);
    expect(response.headers.get('sunset')).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
    expect(linkRels(response, borrowRetired.docs)).toEqual(['deprecation']);
    // The resource's own links are still there.
    expect(linkRels(response, `/books/${bookId}`)).toEqual(['self']);
  });

  it('is announced the same in every format', async () => {
    for (const accept of ['application/prs.hal-forms+json', 'application/hal+json', 'text/html']) {
      const response = await request(`/books/${bookId}`, member.token, { headers: { Accept: accept } });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('deprecation'), accept).toBe('@1767225600');
      expect(response.headers.get('sunset'), accept).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
    }
  });

  it('is not announced where it is not offered', async () => {
    for (const [path, token] of [
      [`/books/${bookId}`, undefined],
      [`/authors/${authorId}`, member.token],
      ['/', member.token],
      ['/books?page=1', member.token],
    ] as const) {
      const response = await request(path, token);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('deprecation'), path).toBeNull();
      expect(response.headers.get('sunset'), path).toBeNull();
      expect(response.headers.get('link'), path).not.toContain('rel="deprecation"');
    }
  });

  it('keeps working until its sunset', async () => {
    const borrowed = await request(`/books/${bookId}/borrow`, member.token, { method: 'POST' });
    expect(borrowed.status).toBe(201);
    const loan = await json<LoanDocument>(borrowed);
    const returned = await request(controlOf(loan, 'return').href, member.token, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'returned' }),
    });
    expect(returned.status).toBe(200);
  });

  it('is flagged in the profile and in the OpenAPI document', async () => {
    const profile = await json<ProfileDocument>(await request('/profile'));
    expect(profile.vocabulary.controls.borrow?.deprecated).toEqual(borrowRetired);
    expect(present(profile.vocabulary.controls.return, 'return').deprecated).toBeUndefined();
    const openapi = await json<OpenApiDocument>(await request('/openapi.json'));
    expect(present(openapi.paths['/books/{id}/borrow']?.post, 'borrowing').deprecated).toBe(true);
    expect(present(openapi.paths['/loans/{id}']?.patch, 'returning').deprecated).toBeUndefined();
  });
});

describe('a deprecated rel', () => {
  const request = appWith(deprecate(vocabulary, { rel: 'author' }, authorRetired));

  it('is announced on a document that links by it, and on a page whose members do; no Sunset until one is set', async () => {
    for (const path of [`/books/${bookId}`, '/books?page=1', `/authors/${authorId}/books?page=1`]) {
      const response = await request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('deprecation'), path).toBe(`@${Date.UTC(2025, 5, 1) / 1000}`);
      expect(response.headers.get('sunset'), path).toBeNull();
      expect(linkRels(response, '/docs/author-link'), path).toEqual(['deprecation']);
    }
    const author = await request(`/authors/${authorId}`);
    expect(author.headers.get('deprecation')).toBeNull();
  });
});

describe('several deprecations in one response', () => {
  const request = appWith(
    deprecate(deprecate(vocabulary, { control: 'borrow' }, borrowRetired), { rel: 'author' }, authorRetired),
  );

  it('announce the earliest deprecation and the earliest sunset, with a link to each one\u2019s docs', async () => {
    const response = await request(`/books/${bookId}`, member.token);
    expect(response.headers.get('deprecation')).toBe('@1748736000');
    expect(response.headers.get('sunset')).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
    expect(linkRels(response, borrowRetired.docs)).toEqual(['deprecation']);
    expect(linkRels(response, authorRetired.docs)).toEqual(['deprecation']);
  });
});

describe('the mechanism', () => {
  it('refuses to start with a deprecation whose dates are not dates or out of order', () => {
    for (const bad of [
      { since: '1 January 2026', docs: '/docs' },
      { since: '2026-01-01', sunset: '2025-01-01', docs: '/docs' },
      { since: '2026-01-01', docs: 'docs' },
    ]) {
      expect(() =>
        createApp({ database: t.database, vocabulary: deprecate(vocabulary, { control: 'delete' }, bad) }),
      ).toThrow(/deprecation of "delete"/);
    }
  });

  it('leaves the vocabulary it is given unchanged, and the catalogue deprecates nothing today', async () => {
    deprecate(vocabulary, { control: 'borrow' }, borrowRetired);
    const all = [...Object.values(vocabulary.rels), ...Object.values(vocabulary.controls)];
    expect(all.filter((entry) => entry.deprecated)).toEqual([]);
    const response = await t.as(member.token).request(`/books/${bookId}`);
    expect(response.headers.get('deprecation')).toBeNull();
    expect((await t.request('/')).headers.get('deprecation')).toBeNull();
  });
});
