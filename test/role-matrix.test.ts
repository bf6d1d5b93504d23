/**
 * The role matrix of issue 3. First half: for each caller (anonymous, a member, another member, a
 * librarian) and each endpoint, the status is exactly the documented one; refused writes change nothing.
 * Second half: controls shown ⇔ allowed. Every control a caller is shown, submitted as a generic client
 * would, succeeds; every control a librarian is shown on the same resource but this caller is not, sent
 * by this caller, is refused; so are the actions no one is offered in that state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  LIBRARIAN_TOKEN,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { expectError } from './support/errors.js';

type Role = 'anonymous' | 'member' | 'otherMember' | 'librarian';
const roles: readonly Role[] = ['anonymous', 'member', 'otherMember', 'librarian'];
type ByRole<T> = Record<Role, T>;

interface Actor {
  id: number;
  token: string;
}

let serial = 0;
/** A distinctive name, new at each call. */
const unique = (prefix: string) => `${prefix} ${++serial}`;

/** An error response in the documented shape, with `WWW-Authenticate` on a 401. */
async function expectRefusal(response: Response, status: number, what: string): Promise<void> {
  if (status === 401) expect(response.headers.get('www-authenticate'), what).toBe('Bearer realm="catalogue"');
  if (response.headers.get('content-length') === '0' || response.body === null) return;
  await expectError(response, status, { what });
}

/** The id in the `me` link of the root, as seen by this client. */
async function ownId(client: TestClient): Promise<number> {
  const root = await json(await client.request('/'));
  const me = linkHref(root, 'me');
  if (!me) throw new Error('no me link in the root');
  return Number(me.split('/').pop());
}

/** The librarian lends a book to a borrower; answers the loan's id. */
async function lend(t: TestCatalogue, bookId: number, borrowerId: number): Promise<number> {
  const response = await t.send('POST', `/books/${bookId}/borrow`, { borrower_id: borrowerId });
  if (response.status !== 201) throw new Error(`lending book ${bookId}: ${response.status} ${await response.text()}`);
  return (await json(response)).id;
}

async function returnLoan(t: TestCatalogue, loanId: number): Promise<void> {
  const response = await t.send('PATCH', `/loans/${loanId}`, { status: 'returned' });
  if (response.status !== 200) throw new Error(`returning loan ${loanId}: ${response.status} ${await response.text()}`);
}

async function addTokenOf(t: TestCatalogue, userId: number): Promise<number> {
  const response = await t.send('POST', `/users/${userId}/tokens`, { name: unique('matrix token') });
  if (response.status !== 201) throw new Error(`token for ${userId}: ${response.status} ${await response.text()}`);
  return (await json(response)).id;
}

async function addPlainUser(t: TestCatalogue): Promise<number> {
  const response = await t.send('POST', '/users', { name: unique('Matrix Patron'), role: 'member' });
  if (response.status !== 201) throw new Error(`creating user: ${response.status} ${await response.text()}`);
  return (await json(response)).id;
}

// ---------------------------------------------------------------------------------------------------
// First half: the status of every endpoint for every caller.
// ---------------------------------------------------------------------------------------------------

/** What the matrix's rows act on: shared subjects for reads, and makers of fresh state for writes. */
interface Scene {
  t: TestCatalogue;
  member: Actor;
  otherMember: Actor;
  librarianId: number;
  authorId: number;
  bookId: number;
  /** An active loan of `member`. */
  loanId: number;
  /** A token of `member` other than the one they sign in with. */
  memberTokenId: number;
  freshBook(): Promise<number>;
  freshAuthor(): Promise<number>;
  /** A fresh active loan of `member`. */
  freshLoan(): Promise<number>;
}

async function buildScene(t: TestCatalogue): Promise<Scene> {
  const member = await addUser(t, 'Matrix Member', 'member');
  const otherMember = await addUser(t, 'Matrix Other Member', 'member');
  const authorId = await addAuthor(t, 'Matrix Author');
  const freshBook = () => addBook(t, unique('Matrix Book'), 2001, authorId);
  const bookId = await freshBook();
  const freshLoan = async () => lend(t, await freshBook(), member.id);
  return {
    t,
    member,
    otherMember,
    librarianId: await ownId(t),
    authorId,
    bookId,
    loanId: await freshLoan(),
    memberTokenId: await addTokenOf(t, member.id),
    freshBook,
    freshAuthor: () => addAuthor(t, unique('Matrix Writer')),
    freshLoan,
  };
}

function clientOf(s: Scene, role: Role): TestClient {
  switch (role) {
    case 'anonymous':
      return s.t.anonymous;
    case 'member':
      return s.t.as(s.member.token);
    case 'otherMember':
      return s.t.as(s.otherMember.token);
    case 'librarian':
      return s.t;
  }
}

/** The user id of a signed-in role (anonymous has none: the member's stands in, refused anyway). */
function idOf(s: Scene, role: Role): number {
  return { anonymous: s.member.id, member: s.member.id, otherMember: s.otherMember.id, librarian: s.librarianId }[role];
}

type PathOf = (s: Scene) => string | Promise<string>;
type BodyOf = ((s: Scene, role: Role) => unknown) | Record<string, unknown> | undefined;
/** [method, path as shown in the test name, path builder (may make fresh state), body, expected status]. */
type Row = [method: string, shown: string, path: PathOf, body: BodyOf, expected: ByRole<number>];

const readRows: Row[] = [
  ['GET', '/', () => '/', undefined, { anonymous: 200, member: 200, otherMember: 200, librarian: 200 }],
  ['GET', '/health', () => '/health', undefined, { anonymous: 200, member: 200, otherMember: 200, librarian: 200 }],
  ['GET', '/books', () => '/books', undefined, { anonymous: 200, member: 200, otherMember: 200, librarian: 200 }],
  [
    'GET',
    '/books?page=1',
    () => '/books?page=1',
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  [
    'GET',
    '/books/{id}',
    (s) => `/books/${s.bookId}`,
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  [
    'GET',
    '/books/{id}/author',
    (s) => `/books/${s.bookId}/author`,
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  ['GET', '/authors', () => '/authors', undefined, { anonymous: 200, member: 200, otherMember: 200, librarian: 200 }],
  [
    'GET',
    '/authors/{id}',
    (s) => `/authors/${s.authorId}`,
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  [
    'GET',
    '/authors/{id}/books',
    (s) => `/authors/${s.authorId}/books`,
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  ['GET', '/loans', () => '/loans', undefined, { anonymous: 401, member: 200, otherMember: 200, librarian: 200 }],
  [
    'GET',
    '/loans?page=1',
    () => '/loans?page=1',
    undefined,
    { anonymous: 401, member: 200, otherMember: 200, librarian: 200 },
  ],
  [
    'GET',
    "/loans/{member's loan}",
    (s) => `/loans/${s.loanId}`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  ['GET', '/users', () => '/users', undefined, { anonymous: 401, member: 403, otherMember: 403, librarian: 200 }],
  [
    'GET',
    '/users?page=1',
    () => '/users?page=1',
    undefined,
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'GET',
    '/users/{member}',
    (s) => `/users/${s.member.id}`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'GET',
    '/users/{member}/loans',
    (s) => `/users/${s.member.id}/loans`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'GET',
    '/users/{member}/loans?page=1',
    (s) => `/users/${s.member.id}/loans?page=1`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'GET',
    '/users/{member}/tokens',
    (s) => `/users/${s.member.id}/tokens`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'GET',
    '/users/{member}/tokens/{id}',
    (s) => `/users/${s.member.id}/tokens/${s.memberTokenId}`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
];

/** HEAD answers exactly as GET does, without a body. */
const headRows: Row[] = readRows.map(([, ...rest]) => ['HEAD', ...rest]);

const writeRows: Row[] = [
  // Books
  [
    'POST',
    '/books',
    () => '/books',
    (s) => ({ title: unique('Matrix Posted Book'), publication_year: 1990, author_id: s.authorId }),
    { anonymous: 401, member: 403, otherMember: 403, librarian: 201 },
  ],
  [
    'PUT',
    '/books/{fresh}',
    async (s) => `/books/${await s.freshBook()}`,
    { title: 'Matrix Retitled Book' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'PATCH',
    '/books/{fresh}',
    async (s) => `/books/${await s.freshBook()}`,
    { publication_year: 1999 },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'DELETE',
    '/books/{fresh, never lent}',
    async (s) => `/books/${await s.freshBook()}`,
    undefined,
    { anonymous: 401, member: 403, otherMember: 403, librarian: 204 },
  ],
  [
    'DELETE',
    '/books/{fresh, with loan history}',
    async (s) => {
      const bookId = await s.freshBook();
      await returnLoan(s.t, await lend(s.t, bookId, s.member.id));
      return `/books/${bookId}`;
    },
    undefined,
    { anonymous: 401, member: 403, otherMember: 403, librarian: 409 },
  ],
  // Authors
  [
    'POST',
    '/authors',
    () => '/authors',
    () => ({ name: unique('Matrix Posted Author') }),
    { anonymous: 401, member: 403, otherMember: 403, librarian: 201 },
  ],
  [
    'PUT',
    '/authors/{fresh}',
    async (s) => `/authors/${await s.freshAuthor()}`,
    { name: 'Matrix Renamed Author' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'PATCH',
    '/authors/{fresh}',
    async (s) => `/authors/${await s.freshAuthor()}`,
    { name: 'Matrix Edited Author' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'DELETE',
    '/authors/{fresh, no books}',
    async (s) => `/authors/${await s.freshAuthor()}`,
    undefined,
    { anonymous: 401, member: 403, otherMember: 403, librarian: 204 },
  ],
  [
    'DELETE',
    '/authors/{fresh, with a book}',
    async (s) => {
      const authorId = await s.freshAuthor();
      await addBook(s.t, unique('Matrix Kept Book'), 2002, authorId);
      return `/authors/${authorId}`;
    },
    undefined,
    { anonymous: 401, member: 403, otherMember: 403, librarian: 409 },
  ],
  // Borrowing
  [
    'POST',
    '/books/{fresh}/borrow (no body)',
    async (s) => `/books/${await s.freshBook()}/borrow`,
    undefined,
    { anonymous: 401, member: 201, otherMember: 201, librarian: 201 },
  ],
  [
    'POST',
    '/books/{fresh}/borrow {}',
    async (s) => `/books/${await s.freshBook()}/borrow`,
    {},
    { anonymous: 401, member: 201, otherMember: 201, librarian: 201 },
  ],
  [
    'POST',
    '/books/{fresh}/borrow {borrower_id: own id}',
    async (s) => `/books/${await s.freshBook()}/borrow`,
    (s, role) => ({ borrower_id: idOf(s, role) }),
    { anonymous: 401, member: 201, otherMember: 201, librarian: 201 },
  ],
  [
    'POST',
    "/books/{fresh}/borrow {borrower_id: someone else's id}",
    async (s) => `/books/${await s.freshBook()}/borrow`,
    (s, role) => ({ borrower_id: role === 'member' ? s.otherMember.id : s.member.id }),
    { anonymous: 401, member: 403, otherMember: 403, librarian: 201 },
  ],
  [
    'POST',
    '/books/{fresh, on loan to member}/borrow',
    async (s) => {
      const bookId = await s.freshBook();
      await lend(s.t, bookId, s.member.id);
      return `/books/${bookId}/borrow`;
    },
    undefined,
    { anonymous: 401, member: 409, otherMember: 409, librarian: 409 },
  ],
  // Loans
  [
    'PATCH',
    "/loans/{member's fresh active loan} return",
    async (s) => `/loans/${await s.freshLoan()}`,
    { status: 'returned' },
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'PATCH',
    "/loans/{member's fresh returned loan} return",
    async (s) => {
      const loanId = await s.freshLoan();
      await returnLoan(s.t, loanId);
      return `/loans/${loanId}`;
    },
    { status: 'returned' },
    { anonymous: 401, member: 409, otherMember: 404, librarian: 409 },
  ],
  [
    'DELETE',
    "/loans/{member's fresh loan}",
    async (s) => `/loans/${await s.freshLoan()}`,
    undefined,
    { anonymous: 405, member: 405, otherMember: 405, librarian: 405 },
  ],
  // Users
  [
    'POST',
    '/users',
    () => '/users',
    () => ({ name: unique('Matrix Posted User'), role: 'member' }),
    { anonymous: 401, member: 403, otherMember: 403, librarian: 201 },
  ],
  [
    'PUT',
    '/users/{fresh}',
    async (s) => `/users/${await addPlainUser(s.t)}`,
    { name: 'Matrix Renamed Patron', role: 'member' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'PATCH',
    '/users/{fresh}',
    async (s) => `/users/${await addPlainUser(s.t)}`,
    { name: 'Matrix Edited Patron' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'PATCH',
    '/users/{member} (their own user)',
    (s) => `/users/${s.member.id}`,
    { role: 'member' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  // Tokens
  [
    'POST',
    '/users/{member}/tokens {name}',
    (s) => `/users/${s.member.id}/tokens`,
    () => ({ name: unique('matrix label') }),
    { anonymous: 401, member: 201, otherMember: 404, librarian: 201 },
  ],
  [
    'POST',
    '/users/{member}/tokens (no body)',
    (s) => `/users/${s.member.id}/tokens`,
    undefined,
    { anonymous: 401, member: 201, otherMember: 404, librarian: 201 },
  ],
  [
    'DELETE',
    '/users/{member}/tokens/{fresh}',
    async (s) => `/users/${s.member.id}/tokens/${await addTokenOf(s.t, s.member.id)}`,
    undefined,
    { anonymous: 401, member: 204, otherMember: 404, librarian: 204 },
  ],
];

/** One test per cell: [method, shown path, role, expected status, row]. */
const cellsOf = (rows: Row[]) =>
  rows.flatMap((row) => roles.map((role) => [row[0], row[1], role, row[4][role], row] as const));

/** What a librarian sees at the path a write aims at (for a borrow, the book), to show it unchanged. */
async function snapshot(s: Scene, method: string, path: string): Promise<string> {
  const watched = method === 'POST' ? path.replace(/\/borrow$/, '') : path;
  const response = await s.t.request(watched);
  return `${response.status} ${await response.text()}`;
}

describe('role matrix: the status of every endpoint for every caller', () => {
  let s: Scene;

  beforeAll(async () => {
    // The matrix lends a fresh loan to the same member for every row; the cap has tests of its own.
    s = await buildScene(await openTestCatalogue({ access: { maxActiveLoans: undefined } }));
  });

  afterAll(async () => {
    await s?.t.close();
  });

  async function perform(method: string, path: string, body: BodyOf, role: Role): Promise<Response> {
    const client = clientOf(s, role);
    const payload = typeof body === 'function' ? body(s, role) : body;
    if (method === 'GET' || method === 'HEAD') return client.request(path, { method });
    return client.send(method, path, payload);
  }

  it.each(cellsOf([...readRows, ...headRows]))('%s %s as %s → %i', async (method, _shown, role, expected, row) => {
    const path = await row[2](s);
    const response = await perform(method, path, row[3], role);
    expect(response.status, `${method} ${path} as ${role}`).toBe(expected);
    if (method === 'HEAD') expect(await response.text()).toBe('');
    if (expected >= 400) await expectRefusal(response, expected, `${method} ${path} as ${role}`);
  });

  it.each(cellsOf(writeRows))('%s %s as %s → %i', async (method, _shown, role, expected, row) => {
    const path = await row[2](s);
    const before = expected >= 400 ? await snapshot(s, method, path) : undefined;
    const response = await perform(method, path, row[3], role);
    expect(response.status, `${method} ${path} as ${role}`).toBe(expected);
    if (expected === 201) expect(response.headers.get('location')).toMatch(/^\/(books|authors|loans|users)\/\d+/);
    if (expected >= 400) {
      await expectRefusal(response, expected, `${method} ${path} as ${role}`);
      expect(await snapshot(s, method, path), 'a refused write changes nothing').toBe(before);
    }
  });
});

describe('role matrix with CATALOGUE_PUBLIC_READS=false: anonymous reads only /health and the sign-in root', () => {
  let s: Scene;

  beforeAll(async () => {
    s = await buildScene(await openTestCatalogue({ access: { publicReads: false, maxActiveLoans: undefined } }));
  });

  afterAll(async () => {
    await s?.t.close();
  });

  /**
   * Signed-in callers keep the statuses of the open catalogue; anonymous gets 401 except on /health and
   * the root, which is then a sign-in page (what it offers is tested in auth-and-tokens.test.ts).
   */
  const closed: Row[] = [...readRows, ...headRows].map(([method, shown, path, body, expected]) => [
    method,
    shown,
    path,
    body,
    { ...expected, anonymous: shown === '/health' || shown === '/' ? 200 : 401 },
  ]);

  it.each(cellsOf(closed))('%s %s as %s → %i', async (method, _shown, role, expected, row) => {
    const path = await row[2](s);
    const response = await clientOf(s, role).request(path, { method });
    expect(response.status, `${method} ${path} as ${role}`).toBe(expected);
    if (expected >= 400) await expectRefusal(response, expected, `${method} ${path} as ${role}`);
  });
});

// ---------------------------------------------------------------------------------------------------
// Second half: controls shown ⇔ allowed.
// ---------------------------------------------------------------------------------------------------

interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  value?: string | number | boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  enum?: string[];
  options?: { href: string; valueField: string; promptField: string };
}
interface ControlDoc {
  href: string;
  method: string;
  contentType?: string;
  fields: FieldDoc[];
}
interface Doc {
  links: { rel: string; href: string; templated?: boolean }[];
  controls: Record<string, ControlDoc>;
}

/** A world of its own for one submission: a member and another member, and an author. */
interface World {
  t: TestCatalogue;
  member: Actor;
  otherMember: Actor;
  authorId: number;
}

async function newWorld(t: TestCatalogue): Promise<World> {
  return {
    t,
    member: await addUser(t, unique('Control Member'), 'member'),
    otherMember: await addUser(t, unique('Control Other'), 'member'),
    authorId: await addAuthor(t, unique('Control Author')),
  };
}

function worldClient(w: World, role: Role): TestClient {
  switch (role) {
    case 'anonymous':
      return w.t.anonymous;
    case 'member':
      return w.t.as(w.member.token);
    case 'otherMember':
      return w.t.as(w.otherMember.token);
    case 'librarian':
      return w.t.as(LIBRARIAN_TOKEN);
  }
}

/** A request no one is offered in the resource's state (the control it would be, were it offered). */
interface Unoffered {
  control: string;
  method: string;
  href: string;
  body?: unknown;
}

interface ResourceCase {
  name: string;
  /** Makes a fresh copy of the resource in the world; answers its document and the requests no one is offered. */
  make(w: World): Promise<{ href: string; unoffered?: Unoffered[] }>;
  /** Status of GET on the document for each caller. */
  status: ByRole<number>;
  /** The controls each caller is shown, by name. */
  controls: ByRole<string[]>;
}

const publicDoc = { anonymous: 200, member: 200, otherMember: 200, librarian: 200 };
const searchOnly = {
  anonymous: ['search'],
  member: ['search'],
  otherMember: ['search'],
  librarian: ['create', 'search'],
};
const fullBook = ['borrow', 'update', 'edit', 'delete'];

const freshBookIn = (w: World) => addBook(w.t, unique('Control Book'), 1980, w.authorId);

const resourceCases: ResourceCase[] = [
  {
    name: 'the root',
    make: async () => ({ href: '/' }),
    status: publicDoc,
    // Signing in is for those not signed in; bearer-token callers have no session to end.
    controls: { anonymous: ['login', 'search'], member: ['search'], otherMember: ['search'], librarian: ['search'] },
  },
  {
    name: 'an available book',
    make: async (w) => ({ href: `/books/${await freshBookIn(w)}` }),
    status: publicDoc,
    controls: { anonymous: [], member: ['borrow'], otherMember: ['borrow'], librarian: fullBook },
  },
  {
    name: 'a book on loan to the member',
    async make(w) {
      const id = await freshBookIn(w);
      await lend(w.t, id, w.member.id);
      return {
        href: `/books/${id}`,
        unoffered: [
          { control: 'borrow', method: 'POST', href: `/books/${id}/borrow`, body: {} },
          { control: 'delete', method: 'DELETE', href: `/books/${id}` },
        ],
      };
    },
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update', 'edit'] },
  },
  {
    name: 'an available book with loan history',
    async make(w) {
      const id = await freshBookIn(w);
      await returnLoan(w.t, await lend(w.t, id, w.otherMember.id));
      return { href: `/books/${id}`, unoffered: [{ control: 'delete', method: 'DELETE', href: `/books/${id}` }] };
    },
    status: publicDoc,
    controls: { anonymous: [], member: ['borrow'], otherMember: ['borrow'], librarian: ['borrow', 'update', 'edit'] },
  },
  {
    name: 'an available book while the member holds the most loans a member may (2)',
    async make(w) {
      await lend(w.t, await freshBookIn(w), w.member.id);
      await lend(w.t, await freshBookIn(w), w.member.id);
      return { href: `/books/${await freshBookIn(w)}` };
    },
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: ['borrow'], librarian: fullBook },
  },
  {
    name: 'an author without books',
    make: async (w) => ({ href: `/authors/${await addAuthor(w.t, unique('Control Bookless'))}` }),
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update', 'edit', 'delete'] },
  },
  {
    name: 'an author with books',
    async make(w) {
      await freshBookIn(w);
      const href = `/authors/${w.authorId}`;
      return { href, unoffered: [{ control: 'delete', method: 'DELETE', href }] };
    },
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update', 'edit'] },
  },
  {
    name: 'the books page',
    async make(w) {
      await freshBookIn(w);
      return { href: '/books?page=1&per_page=20' };
    },
    status: publicDoc,
    controls: searchOnly,
  },
  {
    name: "an author's books page",
    async make(w) {
      await freshBookIn(w);
      return { href: `/authors/${w.authorId}/books?page=1&per_page=20` };
    },
    status: publicDoc,
    controls: searchOnly,
  },
  {
    name: 'the authors page',
    make: async () => ({ href: '/authors?page=1&per_page=20' }),
    status: publicDoc,
    controls: searchOnly,
  },
  {
    name: "the member's active loan",
    make: async (w) => ({ href: `/loans/${await lend(w.t, await freshBookIn(w), w.member.id)}` }),
    status: { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
    controls: { anonymous: [], member: ['return'], otherMember: [], librarian: ['return'] },
  },
  {
    name: "the member's returned loan",
    async make(w) {
      const id = await lend(w.t, await freshBookIn(w), w.member.id);
      await returnLoan(w.t, id);
      const href = `/loans/${id}`;
      return { href, unoffered: [{ control: 'return', method: 'PATCH', href, body: { status: 'returned' } }] };
    },
    status: { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
  },
  {
    name: 'the loans page',
    async make(w) {
      await lend(w.t, await freshBookIn(w), w.member.id);
      return { href: '/loans?page=1&per_page=20' };
    },
    status: { anonymous: 401, member: 200, otherMember: 200, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
  },
  {
    name: "the member's loans page",
    async make(w) {
      await lend(w.t, await freshBookIn(w), w.member.id);
      return { href: `/users/${w.member.id}/loans?page=1&per_page=20` };
    },
    status: { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
  },
  {
    name: "the member's user",
    make: async (w) => ({ href: `/users/${w.member.id}` }),
    status: { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update', 'edit'] },
  },
  {
    name: 'the users page',
    make: async () => ({ href: '/users?page=1&per_page=20' }),
    status: { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['create'] },
  },
  {
    name: "the member's tokens",
    make: async (w) => ({ href: `/users/${w.member.id}/tokens` }),
    status: { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
    controls: { anonymous: [], member: ['create'], otherMember: [], librarian: ['create'] },
  },
  {
    name: "one of the member's tokens",
    make: async (w) => ({ href: `/users/${w.member.id}/tokens/${await addTokenOf(w.t, w.member.id)}` }),
    status: { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
    controls: { anonymous: [], member: ['delete'], otherMember: [], librarian: ['delete'] },
  },
];

/** A valid value for a required field that gives none, as a client would choose it. */
async function chooseValue(w: World, f: FieldDoc): Promise<unknown> {
  // What a person signing in types: their own token.
  if (f.name === 'token') return w.member.token;
  if (f.options) {
    // The choices live in a collection: pick its first item (asking as the librarian, who may list any).
    const choices = await json<Record<string, unknown>[]>(await w.t.request(f.options.href));
    expect(choices.length, `choices at ${f.options.href}`).toBeGreaterThan(0);
    return choices[0]?.[f.options.valueField];
  }
  if (f.enum) return f.enum[0];
  switch (f.type) {
    case 'integer':
      return Math.min(Math.max(f.min ?? 1, 1), f.max ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return true;
    case 'date':
      return '2000-01-01';
    default:
      return unique('Control Value').slice(0, f.maxLength ?? 200);
  }
}

/**
 * Submits a control as a generic client does: its href and method; each field's `value` where one is
 * given, a chosen valid value for a required field without one; as query parameters for GET, as a JSON
 * body otherwise (none for DELETE).
 */
async function submit(w: World, client: TestClient, c: ControlDoc): Promise<Response> {
  const values: Record<string, unknown> = {};
  for (const f of c.fields) {
    if (f.value !== undefined) values[f.name] = f.value;
    else if (f.required) values[f.name] = await chooseValue(w, f);
  }
  if (c.method === 'GET') {
    const url = new URL(c.href, 'http://catalogue.invalid');
    for (const [name, value] of Object.entries(values)) url.searchParams.set(name, String(value));
    return client.request(`${url.pathname}${url.search}`);
  }
  if (c.method === 'DELETE') return client.request(c.href, { method: 'DELETE' });
  return client.request(c.href, {
    method: c.method,
    headers: { 'Content-Type': c.contentType ?? 'application/json' },
    body: JSON.stringify(values),
  });
}

/** GETs a document as a caller: its status, and its controls when it is one. */
async function fetchControls(client: TestClient, href: string): Promise<{ status: number; doc?: Doc }> {
  const response = await client.request(href);
  if (response.status !== 200) return { status: response.status };
  return { status: 200, doc: await json<Doc>(response) };
}

const isRefusal = (status: number) => status >= 400 && status < 500;

describe('controls shown ⇔ allowed, for every caller and resource', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ access: { maxActiveLoans: 2 } });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A fresh world and copy of the resource, and the document as `role` sees it. */
  async function freshCopy(kase: ResourceCase, role: Role) {
    const w = await newWorld(t);
    const made = await kase.make(w);
    return { w, ...made, ...(await fetchControls(worldClient(w, role), made.href)) };
  }

  const cases = resourceCases.flatMap((kase) => roles.map((role) => [kase.name, role, kase] as const));

  it.each(cases)('%s as %s', async (_name, role, kase) => {
    // What this caller is shown.
    const seen = await freshCopy(kase, role);
    expect(seen.status, `GET ${seen.href} as ${role}`).toBe(kase.status[role]);
    const shown = Object.keys(seen.doc?.controls ?? {});
    expect(shown.sort(), `controls of ${kase.name} as ${role}`).toEqual([...kase.controls[role]].sort());

    // Every control shown, submitted on a fresh copy, succeeds.
    for (const name of shown) {
      const copy = await freshCopy(kase, role);
      const control = copy.doc?.controls[name];
      if (!control) throw new Error(`control ${name} missing from a fresh copy of ${kase.name}`);
      const response = await submit(copy.w, worldClient(copy.w, role), control);
      expect(
        response.status,
        `${name}: ${control.method} ${control.href} as ${role}: ${await response.clone().text()}`,
      ).toBeGreaterThanOrEqual(200);
      expect(response.status, `${name}: ${control.method} ${control.href} as ${role}`).toBeLessThan(300);
    }

    // Every control a librarian is shown here but this caller is not, sent by this caller, is refused.
    const librarianView = await freshCopy(kase, 'librarian');
    expect(Object.keys(librarianView.doc?.controls ?? {}).sort()).toEqual([...kase.controls.librarian].sort());
    for (const name of kase.controls.librarian.filter((n) => !shown.includes(n))) {
      const copy = await freshCopy(kase, 'librarian');
      const control = copy.doc?.controls[name];
      if (!control) throw new Error(`control ${name} missing from a fresh copy of ${kase.name}`);
      const response = await submit(copy.w, worldClient(copy.w, role), control);
      expect(
        isRefusal(response.status),
        `${name}: ${control.method} ${control.href} as ${role} → ${response.status}`,
      ).toBe(true);
      await expectRefusal(response, response.status, `${name} as ${role}`);
    }

    // What no one is offered in this state is refused to everyone.
    for (const index of (seen.unoffered ?? []).keys()) {
      const copy = await freshCopy(kase, role);
      const request = copy.unoffered?.[index] as Unoffered;
      const client = worldClient(copy.w, role);
      const response =
        request.body === undefined
          ? await client.request(request.href, { method: request.method })
          : await client.send(request.method, request.href, request.body);
      expect(
        isRefusal(response.status),
        `unoffered ${request.control}: ${request.method} ${request.href} as ${role} → ${response.status}`,
      ).toBe(true);
      await expectRefusal(response, response.status, `unoffered ${request.control} as ${role}`);
    }
  });

  it.each(roles)(
    'the root links as %s: each link shown can be followed; those only a librarian is shown are refused',
    async (role) => {
      const w = await newWorld(t);
      const client = worldClient(w, role);
      const root = await json<Doc>(await client.request('/'));
      const librarianRoot = await json<Doc>(await worldClient(w, 'librarian').request('/'));
      const expectedRels = {
        anonymous: ['self', 'books', 'authors', 'search', 'changes'],
        member: ['self', 'books', 'authors', 'search', 'changes', 'me', 'loans'],
        otherMember: ['self', 'books', 'authors', 'search', 'changes', 'me', 'loans'],
        librarian: ['self', 'books', 'authors', 'search', 'changes', 'me', 'loans', 'users'],
      }[role].concat('profile', 'service-desc', 'mcp');
      expect(root.links.map((l) => l.rel).sort()).toEqual([...expectedRels].sort());
      for (const link of root.links.filter((l) => !l.templated)) {
        expect((await client.request(link.href)).status, `${link.rel} ${link.href} as ${role}`).toBe(200);
      }
      const shownRels = new Set(root.links.map((l) => l.rel));
      for (const link of librarianRoot.links.filter((l) => !l.templated && !shownRels.has(l.rel))) {
        const response = await client.request(link.href);
        expect(isRefusal(response.status), `${link.rel} ${link.href} as ${role} → ${response.status}`).toBe(true);
      }
    },
  );
});
