/**
 * Who is calling, and the tokens and users behind it: bearer authentication (401 with a challenge for a
 * malformed, unknown or revoked token; `/health` open to all), a closed catalogue (`publicReads: false`),
 * the token lifecycle (the secret shown once, never listed, revocation), the database holding only
 * hashes, and user management by librarians (members see themselves only).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  LIBRARIAN_TOKEN,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrow } from './support/circulation.js';
import {
  ANONYMOUS_ROOT_RELS,
  type AuthorDocument,
  type BookDocument,
  type CollectionDocument,
  controlOf,
  type NewTokenDocument,
  type PageDoc,
  present,
  type RootDocument,
  type TokenDocument,
  type UserDocument,
} from './support/documents.js';
import { type ErrorBody, expectError } from './support/errors.js';

const CHALLENGE = 'Bearer realm="catalogue"';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET_FORMAT = /^cat_[A-Za-z0-9_-]{43}$/;
/** Well-formed but issued by nobody. */
const UNKNOWN_TOKEN = 'cat_NoSuchTokenWasEverIssuedByThisCatalogue00000';

/** 401 in the error shape with the Bearer challenge. */
async function expectUnauthorized(response: Response): Promise<ErrorBody> {
  const body = await expectError(response, 401);
  expect(response.headers.get('www-authenticate')).toBe(CHALLENGE);
  return body;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Creates a token for `userId` as this client and answers its id and secret. */
async function createToken(client: TestClient, userId: number, name = 'spare'): Promise<{ id: number; token: string }> {
  const response = await client.send('POST', `/users/${userId}/tokens`, { name });
  expect(response.status, `creating a token for user ${userId}`).toBe(201);
  const body = await json<NewTokenDocument>(response);
  return { id: body.id, token: body.token };
}

/** The ids of a user's tokens, as the librarian lists them. */
async function tokenIds(t: TestCatalogue, userId: number): Promise<number[]> {
  const response = await t.request(`/users/${userId}/tokens`);
  expect(response.status).toBe(200);
  return (await json<PageDoc<TokenDocument>>(response)).data.map((token: { id: number }) => token.id);
}

/** Whether a token signs in: the root then links `me`. */
async function signsIn(t: TestCatalogue, token: string): Promise<number> {
  return (await t.as(token).request('/')).status;
}

/** Links as `{rel, href}` (titles left out), to compare exactly. */
function linkPairs(doc: { links: { rel: string; href: string }[] }) {
  return doc.links.map((l) => ({ rel: l.rel, href: l.href }));
}

/** Users named exactly so, as the librarian lists them. */
async function usersNamed(t: TestCatalogue, name: string): Promise<{ id: number; name: string; role: string }[]> {
  const response = await t.request(`/users?filter=${encodeURIComponent(`name:${name}`)}`);
  expect(response.status).toBe(200);
  return json<CollectionDocument<UserDocument>>(response);
}

let t: TestCatalogue;
let librarianId: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  const [admin] = await usersNamed(t, 'Administrator');
  librarianId = admin?.id as number;
});
afterAll(() => t.close());

describe('authentication', () => {
  it('the test librarian is the Administrator, a librarian', async () => {
    expect(librarianId).toBeGreaterThan(0);
    const root = await json<RootDocument>(await t.request('/'));
    expect(root.links).toContainEqual(expect.objectContaining({ rel: 'me', href: `/users/${librarianId}` }));
    expect(await json<UserDocument>(await t.request(`/users/${librarianId}`))).toMatchObject({
      id: librarianId,
      name: 'Administrator',
      role: 'librarian',
    });
  });

  it('no Authorization header: anonymous, who may read the public catalogue', async () => {
    const root = await t.anonymous.request('/');
    expect(root.status).toBe(200);
    expect(root.headers.get('www-authenticate')).toBeNull();
    const body = await json<RootDocument>(root);
    expect(body.links.map((l: { rel: string }) => l.rel)).toEqual(ANONYMOUS_ROOT_RELS);
    expect((await t.anonymous.request('/books')).status).toBe(200);
    expect((await t.anonymous.request('/authors?page=1')).status).toBe(200);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNzd29yZA=='],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['a token without a scheme', LIBRARIAN_TOKEN],
    ['a token with a space in it', 'Bearer abc def'],
    ['two tokens', `Bearer ${LIBRARIAN_TOKEN}, Bearer ${LIBRARIAN_TOKEN}`],
    ['a non-ASCII token', 'Bearer caf\u00e9-caf\u00e9-caf\u00e9-caf\u00e9-caf\u00e9'],
    ['an overlong token', `Bearer ${'x'.repeat(513)}`],
    ['an empty header', ''],
  ])(
    'a malformed Authorization header (%s): 401 with the Bearer challenge, even on public reads',
    async (_label, header) => {
      for (const path of ['/', '/books', '/authors']) {
        const response = await t.anonymous.request(path, { headers: { Authorization: header } });
        await expectUnauthorized(response);
      }
    },
  );

  it('the scheme is case-insensitive (RFC 9110): "bearer" works like "Bearer"', async () => {
    const response = await t.anonymous.request('/users', { headers: { Authorization: `bearer ${LIBRARIAN_TOKEN}` } });
    expect(response.status).toBe(200);
  });

  it('an unknown token: 401 on every route but /health, never treated as anonymous', async () => {
    const writer = await addAuthor(t, 'Unknowntoken Fairweather');
    const book = await addBook(t, 'Unknown Uplands', 1970, writer);
    const stranger = t.as(UNKNOWN_TOKEN);
    for (const path of [
      '/',
      '/books',
      '/books?page=1',
      `/books/${book}`,
      `/books/${book}/author`,
      '/authors',
      `/authors/${writer}`,
      `/authors/${writer}/books`,
      '/loans',
      '/users',
      `/users/${librarianId}`,
      `/users/${librarianId}/tokens`,
      '/no/such/route',
    ]) {
      const body = await expectUnauthorized(await stranger.request(path));
      // The refusal does not repeat the secret it was sent.
      expect(body.error.message).not.toContain(UNKNOWN_TOKEN);
    }
    await expectUnauthorized(await stranger.send('POST', '/authors', { name: 'Unknowntoken Interloper' }));
    await expectUnauthorized(await stranger.send('PATCH', `/books/${book}`, { title: 'Stolen Uplands' }));
    await expectUnauthorized(await stranger.request(`/books/${book}`, { method: 'DELETE' }));
    // Nothing was written.
    expect((await json<BookDocument>(await t.request(`/books/${book}`))).title).toBe('Unknown Uplands');
    expect(
      await json<CollectionDocument<AuthorDocument>>(await t.request('/authors?filter=name:Unknowntoken%20Interloper')),
    ).toEqual([]);
  });

  it('a revoked token: 401 from then on, though it worked before', async () => {
    const { id: userId } = await addUser(t, 'Revokee Marchbank');
    const { id, token } = await createToken(t, userId, 'soon revoked');
    expect(await signsIn(t, token)).toBe(200);
    expect((await t.request(`/users/${userId}/tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
    await expectUnauthorized(await t.as(token).request('/'));
    await expectUnauthorized(await t.as(token).request('/books'));
    await expectUnauthorized(await t.as(token).request(`/users/${userId}`));
    await expectUnauthorized(await t.as(token).send('POST', `/users/${userId}/tokens`, { name: 'again' }));
  });

  it('anonymous writes and private reads: 401 with the Bearer challenge', async () => {
    const writer = await addAuthor(t, 'Anonwrite Hollowell');
    const book = await addBook(t, 'Anonymous Acres', 1961, writer);
    const { id: member } = await addUser(t, 'Anonwrite Member');
    const a = t.anonymous;
    await expectUnauthorized(
      await a.send('POST', '/books', { title: 'Nope', publication_year: 2000, author_id: writer }),
    );
    await expectUnauthorized(await a.send('PUT', `/books/${book}`, { title: 'Nope' }));
    await expectUnauthorized(await a.send('PATCH', `/books/${book}`, { title: 'Nope' }));
    await expectUnauthorized(await a.request(`/books/${book}`, { method: 'DELETE' }));
    await expectUnauthorized(await a.send('POST', '/authors', { name: 'Nope' }));
    await expectUnauthorized(await a.send('PATCH', `/authors/${writer}`, { name: 'Nope' }));
    await expectUnauthorized(await a.request(`/authors/${writer}`, { method: 'DELETE' }));
    await expectUnauthorized(await borrow(a, book));
    await expectUnauthorized(await a.request('/loans'));
    await expectUnauthorized(await a.request('/users'));
    await expectUnauthorized(await a.send('POST', '/users', { name: 'Nope', role: 'member' }));
    await expectUnauthorized(await a.request(`/users/${member}`));
    await expectUnauthorized(await a.send('PATCH', `/users/${member}`, { role: 'librarian' }));
    await expectUnauthorized(await a.request(`/users/${member}/loans`));
    await expectUnauthorized(await a.request(`/users/${member}/tokens`));
    await expectUnauthorized(await a.send('POST', `/users/${member}/tokens`, {}));
    expect((await json<BookDocument>(await t.request(`/books/${book}`))).title).toBe('Anonymous Acres');
    expect((await json<UserDocument>(await t.request(`/users/${member}`))).role).toBe('member');
  });

  it('a member on a librarian action: 403 in the error shape, and nothing changes', async () => {
    const writer = await addAuthor(t, 'Memberwrite Oakhurst');
    const book = await addBook(t, 'Membership Meadows', 1962, writer);
    const member = t.as((await addUser(t, 'Memberwrite Member')).token);
    await expectError(
      await member.send('POST', '/books', { title: 'No', publication_year: 2000, author_id: writer }),
      403,
    );
    await expectError(await member.send('PUT', `/books/${book}`, { title: 'No' }), 403);
    await expectError(await member.send('PATCH', `/books/${book}`, { title: 'No' }), 403);
    await expectError(await member.request(`/books/${book}`, { method: 'DELETE' }), 403);
    await expectError(await member.send('POST', '/authors', { name: 'No' }), 403);
    await expectError(await member.send('PATCH', `/authors/${writer}`, { name: 'No' }), 403);
    await expectError(await member.request(`/authors/${writer}`, { method: 'DELETE' }), 403);
    expect(await json<BookDocument>(await t.request(`/books/${book}`))).toMatchObject({ title: 'Membership Meadows' });
    expect(await json<AuthorDocument>(await t.request(`/authors/${writer}`))).toMatchObject({
      name: 'Memberwrite Oakhurst',
    });
  });

  it('/health needs no token, and ignores a bad one', async () => {
    const { id: userId } = await addUser(t, 'Healthcheck Revokee');
    const revoked = await createToken(t, userId);
    expect((await t.request(`/users/${userId}/tokens/${revoked.id}`, { method: 'DELETE' })).status).toBe(204);
    const headerSets: Record<string, string>[] = [
      {},
      { Authorization: 'Basic dXNlcjpwYXNzd29yZA==' },
      { Authorization: 'Bearer' },
      { Authorization: `Bearer ${UNKNOWN_TOKEN}` },
      { Authorization: `Bearer ${revoked.token}` },
      { Authorization: `Bearer ${LIBRARIAN_TOKEN}` },
    ];
    for (const headers of headerSets) {
      const response = await t.anonymous.request('/health', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.json()).toEqual({ status: 'ok' });
    }
  });
});

describe('a closed catalogue (publicReads: false)', () => {
  let closed: TestCatalogue;
  let member: TestClient;
  let memberId: number;
  let writer: number;
  let book: number;

  beforeAll(async () => {
    closed = await openTestCatalogue({ access: { publicReads: false } });
    writer = await addAuthor(closed, 'Closedshelf Ravensworth');
    book = await addBook(closed, 'Closed Cloisters', 1955, writer);
    const added = await addUser(closed, 'Closedshelf Member');
    memberId = added.id;
    member = closed.as(added.token);
  });
  afterAll(() => closed.close());

  const readPaths = () => [
    '/books',
    '/books?page=1',
    '/books?query=cloisters',
    `/books/${book}`,
    `/books/${book}/author`,
    '/authors',
    '/authors?per_page=5',
    `/authors/${writer}`,
    `/authors/${writer}/books`,
    `/authors/${writer}/books?page=1`,
  ];

  it('anonymous: 401 with the Bearer challenge on every read of the catalogue', async () => {
    for (const path of readPaths()) await expectUnauthorized(await closed.anonymous.request(path));
  });

  it('anonymous: 401 everywhere else too, writes, unknown routes, HEAD and OPTIONS included', async () => {
    for (const path of ['/loans', '/users', `/users/${memberId}`, `/users/${memberId}/tokens`]) {
      await expectUnauthorized(await closed.anonymous.request(path));
    }
    // Nothing lives there for anyone: saying so reveals nothing of the catalogue.
    expect((await closed.anonymous.request('/no/such/route')).status).toBe(404);
    await expectUnauthorized(await closed.anonymous.send('POST', '/authors', { name: 'Closed Intruder' }));
    await expectUnauthorized(await borrow(closed.anonymous, book));
    for (const method of ['HEAD', 'OPTIONS']) {
      const response = await closed.anonymous.request('/books', { method });
      expect(response.status, method).toBe(401);
      expect(response.headers.get('www-authenticate'), method).toBe(CHALLENGE);
    }
  });

  it('anonymous: the root is a sign-in page, offering to sign in and nothing it may not read', async () => {
    const response = await closed.anonymous.request('/');
    expect(response.status).toBe(200);
    const root = await json<RootDocument>(response);
    expect(root.links.map((l: { rel: string }) => l.rel)).toEqual(['self']);
    expect(Object.keys(root.controls)).toEqual(['login']);
    expect((await closed.anonymous.request('/assets/catalogue.css')).status).toBe(200);
    for (const path of ['/profile', '/openapi.json']) await expectUnauthorized(await closed.anonymous.request(path));
  });

  it('a browser signs in with a token, then reads with its session cookie; signing out closes it again', async () => {
    const { token } = await addUser(closed, 'Closedshelf Browser');
    const signIn = await closed.anonymous.send('POST', '/session', { token });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/=/);
    const root = await json<RootDocument>(signIn);
    expect(root.links.map((l: { rel: string }) => l.rel)).toContain('books');
    const books = await closed.anonymous.request('/books?page=1', { headers: { cookie } });
    expect(books.status).toBe(200);
    expect((await json<PageDoc<BookDocument>>(books)).data.map((b: { id: number }) => b.id)).toContain(book);
    const signOut = await closed.anonymous.request('/session', { method: 'DELETE', headers: { cookie } });
    expect(signOut.status).toBe(200);
    await expectUnauthorized(await closed.anonymous.request('/books', { headers: { cookie } }));
  });

  it('anonymous: /health still answers 200', async () => {
    const response = await closed.anonymous.request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('a member reads everything as before', async () => {
    for (const path of readPaths()) {
      const response = await member.request(path);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    }
    expect(await json<BookDocument>(await member.request(`/books/${book}`))).toMatchObject({
      id: book,
      title: 'Closed Cloisters',
      available: true,
      due_at: null,
    });
    const root = await json<RootDocument>(await member.request('/'));
    expect(root.links.map((l: { rel: string }) => l.rel)).toEqual([
      'self',
      'books',
      'authors',
      'search',
      'suggestions',
      'changes',
      'oai-pmh',
      'sru',
      'me',
      'my_account',
      'loans',
      'branches',
      'profile',
      'service-desc',
      'mcp',
    ]);
    expect((await member.request(`/users/${memberId}`)).status).toBe(200);
  });

  it('the librarian reads too, and a bad token is still 401', async () => {
    expect((await closed.request('/books?page=1')).status).toBe(200);
    await expectUnauthorized(await closed.as(UNKNOWN_TOKEN).request('/books'));
  });
});

describe('tokens', () => {
  it('creating one shows its secret once: 201, Location, Cache-Control: no-store, the token', async () => {
    const { id: userId } = await addUser(t, 'Tokenly Firstborn');
    const response = await t.send('POST', `/users/${userId}/tokens`, { name: 'laptop' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await json<NewTokenDocument>(response);
    expect(response.headers.get('location')).toBe(`/users/${userId}/tokens/${body.id}`);
    expect(Object.keys(body)).toEqual(['id', 'user_id', 'name', 'created_at', 'token', 'links', 'controls']);
    expect(body).toMatchObject({ user_id: userId, name: 'laptop' });
    expect(Number.isInteger(body.id)).toBe(true);
    expect(body.created_at).toMatch(ISO_UTC);
    expect(Math.abs(Date.parse(body.created_at) - Date.now())).toBeLessThan(10 * 60 * 1000);
    expect(body.token).toMatch(SECRET_FORMAT);
    expect(linkPairs(body)).toEqual([
      { rel: 'self', href: `/users/${userId}/tokens/${body.id}` },
      { rel: 'collection', href: `/users/${userId}/tokens` },
      { rel: 'up', href: `/users/${userId}` },
    ]);
    expect(body.controls).toEqual({
      delete: expect.objectContaining({ href: `/users/${userId}/tokens/${body.id}`, method: 'DELETE', fields: [] }),
    });

    // The secret signs its owner in.
    const root = await json<RootDocument>(await t.as(body.token).request('/'));
    expect(root.links).toContainEqual(expect.objectContaining({ rel: 'me', href: `/users/${userId}` }));
    // And it is never shown again: not by the token, not in the list.
    const again = await t.request(`/users/${userId}/tokens/${body.id}`);
    expect(again.status).toBe(200);
    const againText = await again.text();
    expect(againText).not.toContain(body.token);
    expect(Object.keys(JSON.parse(againText))).toEqual(['id', 'user_id', 'name', 'created_at', 'links', 'controls']);
    expect(await (await t.request(`/users/${userId}/tokens`)).text()).not.toContain(body.token);
  });

  it('each token is a fresh secret', async () => {
    const { id: userId, token: first } = await addUser(t, 'Tokenly Manyfold');
    const secrets = new Set([first]);
    for (let i = 0; i < 5; i++) secrets.add((await createToken(t, userId, `copy ${i}`)).token);
    expect(secrets.size).toBe(6);
    for (const secret of secrets) {
      expect(secret).toMatch(SECRET_FORMAT);
      expect(await signsIn(t, secret)).toBe(200);
    }
  });

  it('the name is optional: an empty body, {} and no Content-Type at all each create a token', async () => {
    const { id: userId } = await addUser(t, 'Tokenly Nameless');
    const before = await tokenIds(t, userId);
    const responses = [
      await t.send('POST', `/users/${userId}/tokens`, {}),
      await t.send('POST', `/users/${userId}/tokens`, ''),
      await t.request(`/users/${userId}/tokens`, { method: 'POST' }),
    ];
    const created: number[] = [];
    for (const response of responses) {
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await json<NewTokenDocument>(response);
      expect(body.user_id).toBe(userId);
      expect(typeof body.name).toBe('string');
      expect(body.name.trim()).not.toBe('');
      expect(body.token).toMatch(SECRET_FORMAT);
      expect(await signsIn(t, body.token)).toBe(200);
      created.push(body.id);
    }
    expect(await tokenIds(t, userId)).toEqual([...before, ...created]);
  });

  it.each([
    ['a number as name', { name: 5 }, 'name'],
    ['a null name', { name: null }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a secret of the client’s choosing', { token: 'cat_mychosensecretmychosensecretmychosensecr' }, 'token'],
    ['an unknown field', { name: 'ok', expires_at: '2030-01-01' }, 'expires_at'],
  ])('refuses %s: 400 naming the field, and no token is created', async (_label, body, field) => {
    const { id: userId } = await addUser(t, `Tokenly Refused ${field}`);
    const before = await tokenIds(t, userId);
    const error = await expectError(await t.send('POST', `/users/${userId}/tokens`, body), 400);
    expect(Object.keys(error.error.details ?? {})).toContain(field);
    expect(await tokenIds(t, userId)).toEqual(before);
  });

  it('refuses a body that is not a JSON object (400) or not JSON (415), creating nothing', async () => {
    const { id: userId } = await addUser(t, 'Tokenly Shapeless');
    const before = await tokenIds(t, userId);
    await expectError(await t.send('POST', `/users/${userId}/tokens`, '[]'), 400);
    await expectError(await t.send('POST', `/users/${userId}/tokens`, '"laptop"'), 400);
    await expectError(await t.send('POST', `/users/${userId}/tokens`, '{"name":'), 400);
    await expectError(
      await t.request(`/users/${userId}/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: 'name=laptop',
      }),
      415,
    );
    expect(await tokenIds(t, userId)).toEqual(before);
  });

  it('the list is paged: per_page and next links walk every token once', async () => {
    const { id: userId } = await addUser(t, 'Tokenly Paged');
    for (const name of ['a', 'b', 'c', 'd']) await createToken(t, userId, name);
    const names: string[] = [];
    let href: string | undefined = `/users/${userId}/tokens?per_page=2`;
    while (href) {
      const response = await t.request(href);
      expect(response.status).toBe(200);
      const body = await json<PageDoc<TokenDocument>>(response);
      expect(body.meta).toMatchObject({ per_page: 2, total_items: 5, total_pages: 3 });
      names.push(...body.data.map((token: { name: string }) => token.name));
      href = body.links.find((l: { rel: string }) => l.rel === 'next')?.href;
    }
    expect(names).toEqual(['test', 'a', 'b', 'c', 'd']);
    expect((await t.request(`/users/${userId}/tokens?per_page=101`)).status).toBe(400);
  });

  it('the list: a page of every token of the user, oldest first, without secrets, and a create control', async () => {
    const { id: userId, token: first } = await addUser(t, 'Tokenly Listed');
    const phone = await createToken(t, userId, 'phone');
    const script = await createToken(t, userId, 'nightly script');
    const response = await t.request(`/users/${userId}/tokens`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of [first, phone.token, script.token]) expect(text).not.toContain(secret);
    const body = JSON.parse(text);
    expect(Object.keys(body)).toEqual(['data', 'meta', 'links', 'controls']);
    // One page holds every token a user can have (MAX_TOKENS_PER_USER), unless a smaller page is asked for.
    expect(body.meta).toEqual({ page: 1, per_page: 100, total_pages: 1, total_items: 3 });
    expect(body.data.map((token: { name: string }) => token.name)).toEqual(['test', 'phone', 'nightly script']);
    const ids = body.data.map((token: { id: number }) => token.id);
    expect(ids.slice(1)).toEqual([phone.id, script.id]);
    expect([...ids].sort((x: number, y: number) => x - y)).toEqual(ids);
    for (const item of body.data) {
      expect(Object.keys(item)).toEqual(['id', 'user_id', 'name', 'created_at', 'links']);
      expect(item.user_id).toBe(userId);
      expect(item.created_at).toMatch(ISO_UTC);
      expect(linkPairs(item)).toEqual([
        { rel: 'self', href: `/users/${userId}/tokens/${item.id}` },
        { rel: 'collection', href: `/users/${userId}/tokens` },
        { rel: 'up', href: `/users/${userId}` },
      ]);
    }
    const page = `/users/${userId}/tokens?page=1&per_page=100`;
    expect(linkPairs(body)).toEqual([
      { rel: 'self', href: page },
      { rel: 'first', href: page },
      { rel: 'last', href: page },
      { rel: 'up', href: `/users/${userId}` },
    ]);
    expect(Object.keys(body.controls)).toEqual(['create']);
    expect(body.controls.create).toMatchObject({
      href: `/users/${userId}/tokens`,
      method: 'POST',
      contentType: 'application/json',
    });
    expect(body.controls.create.fields).toEqual([
      expect.objectContaining({ name: 'name', type: 'string', required: false, maxLength: 200 }),
    ]);
  });

  it('one token: its fields and links, a delete control, and no secret', async () => {
    const { id: userId } = await addUser(t, 'Tokenly Single');
    const created = await createToken(t, userId, 'tablet');
    const response = await t.request(`/users/${userId}/tokens/${created.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeTruthy();
    const body = await json<TokenDocument>(response);
    expect(Object.keys(body)).toEqual(['id', 'user_id', 'name', 'created_at', 'links', 'controls']);
    expect(body).toMatchObject({ id: created.id, user_id: userId, name: 'tablet' });
    expect(JSON.stringify(body)).not.toContain(created.token);
    expect(Object.keys(body.controls)).toEqual(['delete']);
    expect(body.controls.delete).toMatchObject({ href: `/users/${userId}/tokens/${created.id}`, method: 'DELETE' });
  });

  it('revoking: 204, then the token is refused (401) and gone (404), while the user’s other tokens work', async () => {
    const { id: userId, token: kept } = await addUser(t, 'Tokenly Revoked');
    const doomed = await createToken(t, userId, 'lost phone');
    const token = await json<TokenDocument>(await t.request(`/users/${userId}/tokens/${doomed.id}`));
    // Revoking through the token's own control.
    const revoke = controlOf(token, 'delete');
    const response = await t.request(revoke.href, { method: revoke.method });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectUnauthorized(await t.as(doomed.token).request('/'));
    await expectError(await t.request(`/users/${userId}/tokens/${doomed.id}`), 404);
    await expectError(await t.request(`/users/${userId}/tokens/${doomed.id}`, { method: 'DELETE' }), 404);
    expect(await tokenIds(t, userId)).not.toContain(doomed.id);
    expect(await signsIn(t, kept)).toBe(200);
  });

  it('a member manages their own tokens: create, list, read, revoke', async () => {
    const { id: me, token } = await addUser(t, 'Tokenly Selfserve');
    const member = t.as(token);
    const created = await member.send('POST', `/users/${me}/tokens`, { name: 'second device' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const second = await json<NewTokenDocument>(created);
    expect(second).toMatchObject({ user_id: me, name: 'second device' });
    expect(second.token).toMatch(SECRET_FORMAT);

    const list = await json<PageDoc<TokenDocument>>(await member.request(`/users/${me}/tokens`));
    expect(list.data.map((item: { name: string }) => item.name)).toEqual(['test', 'second device']);
    expect(list.data.every((item: { user_id: number }) => item.user_id === me)).toBe(true);
    expect(Object.keys(list.controls)).toEqual(['create']);

    const single = await member.request(`/users/${me}/tokens/${second.id}`);
    expect(single.status).toBe(200);
    expect(Object.keys((await json<TokenDocument>(single)).controls)).toEqual(['delete']);

    expect((await member.request(`/users/${me}/tokens/${second.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectUnauthorized(await t.as(second.token).request('/'));
    expect(await signsIn(t, token)).toBe(200);

    // Revoking the very token in use signs the member out.
    const [current] = (await json<PageDoc<TokenDocument>>(await member.request(`/users/${me}/tokens`))).data;
    expect(
      (await member.request(`/users/${me}/tokens/${present(current, 'the token in use').id}`, { method: 'DELETE' }))
        .status,
    ).toBe(204);
    await expectUnauthorized(await member.request('/'));
  });

  it('a member touching another user’s tokens: 404, never the data, and nothing changes', async () => {
    const intruder = t.as((await addUser(t, 'Tokenly Intruder')).token);
    const { id: victim, token: victimToken } = await addUser(t, 'Tokenly Victim');
    const [victimTokenId] = await tokenIds(t, victim);
    const librarianTokens = await tokenIds(t, librarianId);
    for (const [owner, tokenId] of [
      [victim, victimTokenId],
      [librarianId, librarianTokens[0]],
    ] as const) {
      const listed = await expectError(await intruder.request(`/users/${owner}/tokens`), 404);
      expect(JSON.stringify(listed)).not.toMatch(/cat_|created_at/);
      await expectError(await intruder.request(`/users/${owner}/tokens/${tokenId}`), 404);
      await expectError(await intruder.send('POST', `/users/${owner}/tokens`, { name: 'mine now' }), 404);
      await expectError(await intruder.request(`/users/${owner}/tokens/${tokenId}`, { method: 'DELETE' }), 404);
    }
    expect(await tokenIds(t, victim)).toEqual([victimTokenId]);
    expect(await tokenIds(t, librarianId)).toEqual(librarianTokens);
    expect(await signsIn(t, victimToken)).toBe(200);
    expect(await signsIn(t, LIBRARIAN_TOKEN)).toBe(200);
  });

  it('a token is reached only under its own user: another user’s token id under one’s own path is 404', async () => {
    const { id: me, token } = await addUser(t, 'Tokenly Pathwise');
    const { id: other, token: otherToken } = await addUser(t, 'Tokenly Elsewhere');
    const [otherTokenId] = await tokenIds(t, other);
    const member = t.as(token);
    await expectError(await member.request(`/users/${me}/tokens/${otherTokenId}`), 404);
    await expectError(await member.request(`/users/${me}/tokens/${otherTokenId}`, { method: 'DELETE' }), 404);
    // Not even a librarian deletes a token through the wrong user.
    await expectError(await t.request(`/users/${me}/tokens/${otherTokenId}`, { method: 'DELETE' }), 404);
    expect(await signsIn(t, otherToken)).toBe(200);
  });

  it('a librarian manages anyone’s tokens: lists, creates (signing in as that user), revokes', async () => {
    const { id: userId, token: original } = await addUser(t, 'Tokenly Managed');
    const issued = await createToken(t, userId, 'issued by the desk');
    const root = await json<RootDocument>(await t.as(issued.token).request('/'));
    expect(root.links).toContainEqual(expect.objectContaining({ rel: 'me', href: `/users/${userId}` }));
    expect(root.links.map((l: { rel: string }) => l.rel)).not.toContain('users');
    const list = await json<PageDoc<TokenDocument>>(await t.request(`/users/${userId}/tokens`));
    expect(list.data.map((item: { name: string }) => item.name)).toEqual(['test', 'issued by the desk']);
    const [originalId] = list.data.map((item: { id: number }) => item.id);
    expect((await t.request(`/users/${userId}/tokens/${originalId}`, { method: 'DELETE' })).status).toBe(204);
    await expectUnauthorized(await t.as(original).request('/'));
    expect(await signsIn(t, issued.token)).toBe(200);

    // Another librarian manages the first librarian's tokens too.
    const colleague = t.as((await addUser(t, 'Tokenly Colleague', 'librarian')).token);
    expect((await colleague.request(`/users/${librarianId}/tokens`)).status).toBe(200);
    const spare = await createToken(colleague, librarianId, 'made by a colleague');
    expect(await signsIn(t, spare.token)).toBe(200);
    expect((await colleague.request(`/users/${librarianId}/tokens/${spare.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await expectUnauthorized(await t.as(spare.token).request('/'));
  });

  it('tokens of a user who does not exist: 404', async () => {
    await expectError(await t.request('/users/2147483647/tokens'), 404);
    await expectError(await t.send('POST', '/users/2147483647/tokens', {}), 404);
    await expectError(await t.request('/users/2147483647/tokens/1'), 404);
    await expectError(await t.request(`/users/${librarianId}/tokens/2147483647`), 404);
    await expectError(await t.request('/users/abc/tokens'), 404);
    await expectError(await t.request(`/users/${librarianId}/tokens/abc`), 404);
  });
});

describe('token storage', () => {
  it('the database holds no secret in clear; secret_hash is the SHA-256 hex of the secret', async () => {
    const issued: { id: number; token: string }[] = [];
    for (const [name, role] of [
      ['Storage Member', 'member'],
      ['Storage Librarian', 'librarian'],
    ] as const) {
      const { id: userId, token } = await addUser(t, name, role);
      const [firstId] = await tokenIds(t, userId);
      issued.push({ id: firstId as number, token });
      issued.push(await createToken(t, userId, 'laptop'));
      issued.push(await createToken(t.as(token), userId, 'self-made'));
    }
    const secrets = [...issued.map((i) => i.token), LIBRARIAN_TOKEN];

    const tokenRows = rowsOf<Record<string, unknown>>(await t.database.db.execute(sql`select * from tokens`));
    const userRows = rowsOf<Record<string, unknown>>(await t.database.db.execute(sql`select * from users`));
    expect(tokenRows.length).toBeGreaterThanOrEqual(issued.length + 1);
    expect(userRows.length).toBeGreaterThanOrEqual(3);

    const asText = (value: unknown) =>
      value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
    for (const [table, rows] of [
      ['tokens', tokenRows],
      ['users', userRows],
    ] as const) {
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          const text = asText(value);
          for (const secret of secrets) {
            expect(text, `${table}.${column}`).not.toContain(secret);
            // Not even the random part without its prefix.
            expect(text, `${table}.${column}`).not.toContain(secret.replace(/^cat_/, ''));
          }
        }
      }
    }

    const hashById = new Map(tokenRows.map((row) => [Number(row.id), row.secret_hash]));
    for (const { id, token } of issued) {
      expect(hashById.get(id), `token ${id}`).toBe(sha256Hex(token));
      expect(hashById.get(id)).toMatch(/^[0-9a-f]{64}$/);
    }
    expect([...hashById.values()]).toContain(sha256Hex(LIBRARIAN_TOKEN));
    for (const row of tokenRows) expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('no table of the catalogue holds a secret, in any column', async () => {
    const { id: userId, token } = await addUser(t, 'Storage Wholesale');
    const made = await createToken(t.as(token), userId, 'wholesale');
    const secrets = [token, made.token, LIBRARIAN_TOKEN];
    const tables = rowsOf<{ table_name: string }>(
      await t.database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      ),
    ).map((row) => row.table_name);
    expect(tables).toEqual(expect.arrayContaining(['tokens', 'users', 'books', 'authors', 'loans']));
    for (const table of tables) {
      const rows = rowsOf<{ row: string }>(
        await t.database.db.execute(sql`select t::text as row from ${sql.identifier(table)} as t`),
      );
      for (const { row } of rows) for (const secret of secrets) expect(row, table).not.toContain(secret);
    }
  });
});

describe('users', () => {
  const userLinks = (id: number, librarian: boolean) => [
    { rel: 'self', href: `/users/${id}` },
    { rel: 'loans', href: `/users/${id}/loans?page=1&per_page=20` },
    { rel: 'holds', href: `/users/${id}/holds?page=1&per_page=20` },
    { rel: 'account', href: `/users/${id}/account` },
    { rel: 'payment', href: `/users/${id}/account/payments` },
    // What was sent to them, and what not: librarians only.
    ...(librarian ? [{ rel: 'notices', href: `/users/${id}/notices` }] : []),
    { rel: 'tokens', href: `/users/${id}/tokens` },
    ...(librarian ? [{ rel: 'collection', href: '/users?page=1&per_page=20' }] : []),
    // The default patron category (librarians only) and home branch (issue 45).
    ...(librarian ? [{ rel: 'patron_category', href: '/patron-categories/1' }] : []),
    { rel: 'home_branch', href: '/branches/1' },
  ];

  it('a librarian creates a user: 201, Location, the user with links and update/edit controls', async () => {
    const response = await t.send('POST', '/users', { name: 'Userly Newcomer', role: 'member' });
    expect(response.status).toBe(201);
    const body = await json<UserDocument>(response);
    expect(response.headers.get('location')).toBe(`/users/${body.id}`);
    expect(Object.keys(body)).toEqual([
      'id',
      'name',
      'role',
      'patron_category_id',
      'home_branch_id',
      'card_number',
      'email',
      'language',
      'pin_set',
      'pin_failures',
      'pin_locked_until',
      'notices',
      'links',
      'controls',
    ]);
    // No email address: librarians are told the patron is sent no notices.
    expect(body).toMatchObject({ name: 'Userly Newcomer', role: 'member', notices: 'none are sent: no email address' });
    expect(linkPairs(body)).toEqual(userLinks(body.id, true));
    expect(Object.keys(body.controls).sort()).toEqual(['edit', 'set-pin', 'update']);
    const fields = (required: boolean, name: string, role: string) => [
      expect.objectContaining({ name: 'name', type: 'string', required, maxLength: 200, value: name }),
      expect.objectContaining({ name: 'role', type: 'string', required, enum: ['librarian', 'member'], value: role }),
      // Picked from the lists, prefilled with the defaults the user got.
      expect.objectContaining({ name: 'patron_category_id', type: 'integer', required: false, value: 1 }),
      expect.objectContaining({ name: 'home_branch_id', type: 'integer', required: false, value: 1 }),
      // None yet: no value to prefill.
      { name: 'card_number', type: 'string', required: false, maxLength: 64, nullable: true, title: 'Library card' },
      { name: 'email', type: 'string', required: false, maxLength: 254, nullable: true, title: 'Email' },
      expect.objectContaining({ name: 'language', type: 'string', required: false, nullable: true }),
    ];
    expect(body.controls.update).toMatchObject({ href: `/users/${body.id}`, method: 'PUT' });
    expect(body.controls.update?.fields).toEqual(fields(false, 'Userly Newcomer', 'member'));
    expect(body.controls.edit).toMatchObject({ href: `/users/${body.id}`, method: 'PATCH' });
    expect(body.controls.edit?.fields).toEqual(fields(false, 'Userly Newcomer', 'member'));

    const read = await t.request(`/users/${body.id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(await json<UserDocument>(read)).toEqual(body);
    expect(await usersNamed(t, 'Userly Newcomer')).toEqual([
      {
        id: body.id,
        name: 'Userly Newcomer',
        role: 'member',
        patron_category_id: 1,
        home_branch_id: 1,
        card_number: null,
        email: null,
        language: null,
        pin_set: false,
        pin_failures: 0,
        pin_locked_until: null,
        notices: 'none are sent: no email address',
        links: expect.any(Array),
      },
    ]);
    // A fresh user holds no token until one is made.
    expect((await json<PageDoc<TokenDocument>>(await t.request(`/users/${body.id}/tokens`))).data).toEqual([]);
  });

  it('a librarian may create another librarian', async () => {
    const { id, token } = await addUser(t, 'Userly Deputy', 'librarian');
    expect(await json<UserDocument>(await t.request(`/users/${id}`))).toMatchObject({ role: 'librarian' });
    expect((await t.as(token).request('/users')).status).toBe(200);
  });

  it.each([
    ['an unknown role', { name: 'Userly Refused', role: 'admin' }, 'role'],
    ['a role in other case', { name: 'Userly Refused', role: 'Librarian' }, 'role'],
    ['a null role', { name: 'Userly Refused', role: null }, 'role'],
    ['no role', { name: 'Userly Refused' }, 'role'],
    ['no name', { role: 'member' }, 'name'],
    ['a blank name', { name: '  ', role: 'member' }, 'name'],
    ['a name over 200 characters', { name: 'u'.repeat(201), role: 'member' }, 'name'],
    ['an unknown field', { name: 'Userly Refused', role: 'member', password: 'hunter2' }, 'password'],
  ])('refuses to create a user with %s: 400 naming the field, nothing created', async (_label, body, field) => {
    const error = await expectError(await t.send('POST', '/users', body), 400);
    expect(Object.keys(error.error.details ?? {})).toContain(field);
    expect(await usersNamed(t, 'Userly Refused')).toEqual([]);
  });

  it('the users collection: a bare array of every user, or a page with a create control', async () => {
    const { id } = await addUser(t, 'Userly Listed');
    const all = await t.request('/users');
    expect(all.status).toBe(200);
    const items = await json<CollectionDocument<UserDocument>>(all);
    const item = items.find((user: { id: number }) => user.id === id);
    expect(item).toEqual({
      id,
      name: 'Userly Listed',
      role: 'member',
      patron_category_id: 1,
      home_branch_id: 1,
      card_number: null,
      email: null,
      language: null,
      pin_set: false,
      pin_failures: 0,
      pin_locked_until: null,
      notices: 'none are sent: no email address',
      links: expect.any(Array),
    });
    expect(items.map((user: { id: number }) => user.id)).toContain(librarianId);
    const page = await json<PageDoc<UserDocument>>(await t.request('/users?page=1&per_page=100'));
    expect(page.data.map((user: { id: number }) => user.id)).toContain(id);
    expect(page.controls.create).toMatchObject({ href: '/users', method: 'POST' });
    expect(page.controls.create?.fields.map((f: { name: string; required: boolean }) => [f.name, f.required])).toEqual([
      ['name', true],
      ['role', true],
      ['patron_category_id', false],
      ['home_branch_id', false],
      ['card_number', false],
      ['email', false],
      ['language', false],
    ]);
    const members = await json<CollectionDocument<UserDocument>>(await t.request('/users?filter=role:member'));
    expect(members.length).toBeGreaterThan(0);
    expect(members.every((user: { role: string }) => user.role === 'member')).toBe(true);
  });

  it('a librarian updates a user (PUT and PATCH), and a new role takes effect at once', async () => {
    const { id, token } = await addUser(t, 'Userly Promoted');
    await expectError(await t.as(token).request('/users'), 403);

    const put = await t.send('PUT', `/users/${id}`, { role: 'librarian' });
    expect(put.status).toBe(200);
    expect(await json<UserDocument>(put)).toMatchObject({ id, name: 'Userly Promoted', role: 'librarian' });
    expect((await t.as(token).request('/users')).status).toBe(200);

    const patch = await t.send('PATCH', `/users/${id}`, { name: 'Userly Demoted', role: 'member' });
    expect(patch.status).toBe(200);
    expect(await json<UserDocument>(patch)).toMatchObject({ id, name: 'Userly Demoted', role: 'member' });
    expect(await json<UserDocument>(await t.request(`/users/${id}`))).toMatchObject({
      name: 'Userly Demoted',
      role: 'member',
    });
    await expectError(await t.as(token).request('/users'), 403);
  });

  it('refuses a bad update (400) and an update of nobody (404), changing nothing', async () => {
    const { id } = await addUser(t, 'Userly Steadfast');
    for (const body of [{ role: 'superuser' }, { name: '' }, {}, { id: 99 }, { role: null }]) {
      await expectError(await t.send('PATCH', `/users/${id}`, body), 400);
      await expectError(await t.send('PUT', `/users/${id}`, body), 400);
    }
    expect(await json<UserDocument>(await t.request(`/users/${id}`))).toMatchObject({
      name: 'Userly Steadfast',
      role: 'member',
    });
    await expectError(await t.send('PATCH', '/users/2147483647', { name: 'Nobody' }), 404);
    await expectError(await t.request('/users/2147483647'), 404);
  });

  it('If-Match: the current ETag updates, a stale one is 412 and changes nothing, * always matches', async () => {
    const { id } = await addUser(t, 'Userly Versioned');
    const first = (await t.request(`/users/${id}`)).headers.get('etag') as string;
    expect(first).toBeTruthy();

    const ok = await t.send('PATCH', `/users/${id}`, { name: 'Userly Versioned Twice' }, { 'If-Match': first });
    expect(ok.status).toBe(200);
    const second = ok.headers.get('etag') as string;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);

    await expectError(await t.send('PATCH', `/users/${id}`, { role: 'librarian' }, { 'If-Match': first }), 412);
    await expectError(await t.send('PUT', `/users/${id}`, { role: 'librarian' }, { 'If-Match': first }), 412);
    expect(await json<UserDocument>(await t.request(`/users/${id}`))).toMatchObject({
      name: 'Userly Versioned Twice',
      role: 'member',
    });

    const starred = await t.send('PUT', `/users/${id}`, { name: 'Userly Starred' }, { 'If-Match': '*' });
    expect(starred.status).toBe(200);
    expect(await json<UserDocument>(starred)).toMatchObject({ name: 'Userly Starred' });
  });

  describe('as a member', () => {
    it('reads their own user: links self, loans, holds, account, payment, tokens; no collection; their PIN only', async () => {
      const { id, token } = await addUser(t, 'Userly Ownview');
      const response = await t.as(token).request(`/users/${id}`);
      expect(response.status).toBe(200);
      const body = await json<UserDocument>(response);
      expect(body).toMatchObject({ id, name: 'Userly Ownview', role: 'member' });
      expect(linkPairs(body)).toEqual(userLinks(id, false));
      expect(Object.keys(body.controls)).toEqual(['set-pin']);
      expect((await t.as(token).request(`/users/${id}/loans`)).status).toBe(200);
      expect((await t.as(token).request(`/users/${id}/holds`)).status).toBe(200);
    });

    it('another user, their loans or a user who does not exist: 404 alike, never the data', async () => {
      const { token } = await addUser(t, 'Userly Nosy');
      const { id: other } = await addUser(t, 'Userly Private');
      const nosy = t.as(token);
      for (const target of [other, librarianId, 2147483647]) {
        const error = await expectError(await nosy.request(`/users/${target}`), 404);
        expect(error.error.message).toBe(`user ${target} not found`);
        expect(JSON.stringify(error)).not.toContain('Userly Private');
        await expectError(await nosy.request(`/users/${target}/loans`), 404);
        await expectError(await nosy.request(`/users/${target}/loans?page=1`), 404);
      }
    });

    it('user management: 403, and nothing changes (not even their own role)', async () => {
      const { id, token } = await addUser(t, 'Userly Ambitious');
      const { id: other } = await addUser(t, 'Userly Bystander');
      const member = t.as(token);
      await expectError(await member.request('/users'), 403);
      await expectError(await member.request('/users?page=1'), 403);
      await expectError(await member.send('POST', '/users', { name: 'Userly Sockpuppet', role: 'librarian' }), 403);
      await expectError(await member.send('PATCH', `/users/${id}`, { role: 'librarian' }), 403);
      await expectError(await member.send('PUT', `/users/${id}`, { role: 'librarian' }), 403);
      await expectError(await member.send('PATCH', `/users/${other}`, { name: 'Userly Renamed' }), 403);
      expect(await usersNamed(t, 'Userly Sockpuppet')).toEqual([]);
      expect(await json<UserDocument>(await t.request(`/users/${id}`))).toMatchObject({ role: 'member' });
      expect(await json<UserDocument>(await t.request(`/users/${other}`))).toMatchObject({ name: 'Userly Bystander' });
    });
  });
});
