/**
 * The role matrix of issue 3, with circulation's copies, holds, renewals and overdue loans (issue 12).
 * First half: for each caller (anonymous, a member, another member, a librarian) and each endpoint, the
 * status is exactly the documented one; refused writes change nothing.
 * Second half: controls shown ⇔ allowed. Every control a caller is shown, submitted as a generic client
 * would, succeeds; every control another caller (a librarian, say) is shown on the same resource but this
 * caller is not, sent by this caller, is refused; so are the actions no one is offered in that state.
 */
import { sql } from 'drizzle-orm';
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
import { borrow, borrowed, cancelled, held, renewed, returned } from './support/circulation.js';
import {
  type ControlDoc,
  type Doc,
  type FieldDoc,
  type LoanDocument,
  type RootDocument,
  submit,
  type TokenDocument,
  type UserDocument,
} from './support/documents.js';
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
  const root = await json<RootDocument>(await client.request('/'));
  const me = linkHref(root, 'me');
  if (!me) throw new Error('no me link in the root');
  return Number(me.split('/').pop());
}

/** The librarian lends a book to a borrower; answers the loan's id. */
async function lend(t: TestCatalogue, bookId: number, borrowerId: number): Promise<number> {
  return (await borrowed(t, bookId, { borrower_id: borrowerId })).id;
}

/** Makes a loan overdue as circulation.test.ts does: by moving its dates back in the database. */
async function makeOverdue(t: TestCatalogue, loanId: number): Promise<void> {
  await t.database.db.execute(sql`update loans set borrowed_at = now() - interval '20 days',
    due_at = now() - interval '1 day' where id = ${loanId}`);
}

/** The id of the first copy of a book (a new book comes with one). */
async function firstCopyOf(t: TestCatalogue, bookId: number): Promise<number> {
  const copies = await json<{ id: number }[]>(await t.request(`/books/${bookId}/copies?sort=id`));
  const first = copies[0];
  if (!first) throw new Error(`book ${bookId} has no copy`);
  return first.id;
}

async function addTokenOf(t: TestCatalogue, userId: number): Promise<number> {
  const response = await t.send('POST', `/users/${userId}/tokens`, { name: unique('matrix token') });
  if (response.status !== 201) throw new Error(`token for ${userId}: ${response.status} ${await response.text()}`);
  return (await json<TokenDocument>(response)).id;
}

async function addPlainUser(t: TestCatalogue): Promise<number> {
  const response = await t.send('POST', '/users', { name: unique('Matrix Patron'), role: 'member' });
  if (response.status !== 201) throw new Error(`creating user: ${response.status} ${await response.text()}`);
  return (await json<UserDocument>(response)).id;
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
  /** The copy `bookId` came with, on the shelf. */
  copyId: number;
  /** An active loan of `member`. */
  loanId: number;
  /** A waiting hold of `member`, on a book lent to a patron. */
  holdId: number;
  /** A token of `member` other than the one they sign in with. */
  memberTokenId: number;
  freshBook(): Promise<number>;
  freshAuthor(): Promise<number>;
  /** A fresh active loan of `member`. */
  freshLoan(): Promise<number>;
  /** A fresh book whose only copy is lent to a patron (none of the four callers): none on the shelf. */
  freshBookOut(): Promise<number>;
  /** A fresh waiting hold of `member`. */
  freshHold(): Promise<number>;
}

async function buildScene(t: TestCatalogue): Promise<Scene> {
  const member = await addUser(t, 'Matrix Member', 'member');
  const otherMember = await addUser(t, 'Matrix Other Member', 'member');
  const authorId = await addAuthor(t, 'Matrix Author');
  const freshBook = () => addBook(t, unique('Matrix Book'), 2001, authorId);
  const bookId = await freshBook();
  const freshLoan = async () => lend(t, await freshBook(), member.id);
  const patronId = await addPlainUser(t);
  const freshBookOut = async () => {
    const id = await freshBook();
    await lend(t, id, patronId);
    return id;
  };
  const freshHold = async () => (await held(t.as(member.token), await freshBookOut())).id;
  return {
    t,
    member,
    otherMember,
    librarianId: await ownId(t),
    authorId,
    bookId,
    copyId: await firstCopyOf(t, bookId),
    loanId: await freshLoan(),
    holdId: await freshHold(),
    memberTokenId: await addTokenOf(t, member.id),
    freshBook,
    freshAuthor: () => addAuthor(t, unique('Matrix Writer')),
    freshLoan,
    freshBookOut,
    freshHold,
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
  [
    'GET',
    '/books/{id}/copies',
    (s) => `/books/${s.bookId}/copies`,
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  [
    'GET',
    '/copies/{id}',
    (s) => `/copies/${s.copyId}`,
    undefined,
    { anonymous: 200, member: 200, otherMember: 200, librarian: 200 },
  ],
  // A book's queue is the librarians'; a member sees their own hold on the book and their own holds.
  [
    'GET',
    '/books/{id}/holds',
    (s) => `/books/${s.bookId}/holds`,
    undefined,
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'GET',
    "/holds/{member's hold}",
    (s) => `/holds/${s.holdId}`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
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
  // Everyone's overdue loans for a librarian (the root links them); a member's own for a member.
  [
    'GET',
    '/loans?filter=status:overdue',
    () => '/loans?filter=status:overdue',
    undefined,
    { anonymous: 401, member: 200, otherMember: 200, librarian: 200 },
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
    '/users/{member}/holds',
    (s) => `/users/${s.member.id}/holds`,
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
      await returned(s.t, await lend(s.t, bookId, s.member.id));
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
  // Copies
  [
    'POST',
    '/books/{fresh}/copies {}',
    async (s) => `/books/${await s.freshBook()}/copies`,
    {},
    { anonymous: 401, member: 403, otherMember: 403, librarian: 201 },
  ],
  [
    'PATCH',
    '/copies/{fresh, on the shelf} withdraw',
    async (s) => `/copies/${await firstCopyOf(s.t, await s.freshBook())}`,
    { status: 'withdrawn' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
  ],
  [
    'PATCH',
    '/copies/{fresh, on loan to member} withdraw',
    async (s) => {
      const loan = await json<LoanDocument>(await s.t.request(`/loans/${await s.freshLoan()}`));
      return `/copies/${loan.copy_id}`;
    },
    { status: 'withdrawn' },
    { anonymous: 401, member: 403, otherMember: 403, librarian: 409 },
  ],
  // Holds
  [
    'POST',
    '/books/{fresh, none on the shelf}/holds (no body)',
    async (s) => `/books/${await s.freshBookOut()}/holds`,
    undefined,
    { anonymous: 401, member: 201, otherMember: 201, librarian: 201 },
  ],
  [
    'POST',
    '/books/{fresh, none on the shelf}/holds {}',
    async (s) => `/books/${await s.freshBookOut()}/holds`,
    {},
    { anonymous: 401, member: 201, otherMember: 201, librarian: 201 },
  ],
  [
    'POST',
    '/books/{fresh, on the shelf}/holds',
    async (s) => `/books/${await s.freshBook()}/holds`,
    undefined,
    { anonymous: 401, member: 409, otherMember: 409, librarian: 409 },
  ],
  [
    'POST',
    '/books/{fresh, on loan to member}/holds',
    async (s) => {
      const bookId = await s.freshBook();
      await lend(s.t, bookId, s.member.id);
      return `/books/${bookId}/holds`;
    },
    undefined,
    { anonymous: 401, member: 409, otherMember: 201, librarian: 201 },
  ],
  [
    'POST',
    '/books/{fresh, held by member}/holds',
    async (s) => {
      const bookId = await s.freshBookOut();
      await held(s.t.as(s.member.token), bookId);
      return `/books/${bookId}/holds`;
    },
    undefined,
    { anonymous: 401, member: 409, otherMember: 201, librarian: 201 },
  ],
  [
    'PATCH',
    "/holds/{member's fresh waiting hold} cancel",
    async (s) => `/holds/${await s.freshHold()}`,
    { status: 'cancelled' },
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'PATCH',
    "/holds/{member's fresh cancelled hold} cancel",
    async (s) => {
      const holdId = await s.freshHold();
      await cancelled(s.t, holdId);
      return `/holds/${holdId}`;
    },
    { status: 'cancelled' },
    { anonymous: 401, member: 409, otherMember: 404, librarian: 409 },
  ],
  [
    'DELETE',
    "/holds/{member's fresh hold}",
    async (s) => `/holds/${await s.freshHold()}`,
    undefined,
    { anonymous: 405, member: 405, otherMember: 405, librarian: 405 },
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
      await returned(s.t, loanId);
      return `/loans/${loanId}`;
    },
    { status: 'returned' },
    { anonymous: 401, member: 409, otherMember: 404, librarian: 409 },
  ],
  [
    'PATCH',
    "/loans/{member's fresh overdue loan} return",
    async (s) => {
      const loanId = await s.freshLoan();
      await makeOverdue(s.t, loanId);
      return `/loans/${loanId}`;
    },
    { status: 'returned' },
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'POST',
    "/loans/{member's fresh active loan}/renewals",
    async (s) => `/loans/${await s.freshLoan()}/renewals`,
    undefined,
    { anonymous: 401, member: 200, otherMember: 404, librarian: 200 },
  ],
  [
    'POST',
    "/loans/{member's fresh loan, renewed to the limit (2)}/renewals",
    async (s) => {
      const loanId = await s.freshLoan();
      for (let i = 0; i < 2; i++) await renewed(s.t, loanId);
      return `/loans/${loanId}/renewals`;
    },
    undefined,
    { anonymous: 401, member: 409, otherMember: 404, librarian: 409 },
  ],
  [
    'POST',
    "/loans/{member's fresh overdue loan}/renewals",
    async (s) => {
      const loanId = await s.freshLoan();
      await makeOverdue(s.t, loanId);
      return `/loans/${loanId}/renewals`;
    },
    undefined,
    { anonymous: 401, member: 409, otherMember: 404, librarian: 409 },
  ],
  [
    'POST',
    "/loans/{member's fresh loan of a book otherMember holds}/renewals",
    async (s) => {
      const bookId = await s.freshBook();
      const loanId = await lend(s.t, bookId, s.member.id);
      await held(s.t.as(s.otherMember.token), bookId);
      return `/loans/${loanId}/renewals`;
    },
    undefined,
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

/**
 * Where a write would show, read back by a librarian: the resource it aims at; for a borrow the book, for
 * a renewal the loan, for a hold the book and its queue, for a new copy the book and its copies.
 */
function watched(method: string, path: string): string[] {
  const [, parent, action] = path.match(/^(.*)\/(borrow|renewals|holds|copies)$/) ?? [];
  if (method !== 'POST' || parent === undefined) return [path];
  return action === 'holds' || action === 'copies' ? [parent, path] : [parent];
}

/** What a librarian sees where a write would show, to show it unchanged. */
async function snapshot(s: Scene, method: string, path: string): Promise<string> {
  const seen: string[] = [];
  for (const href of watched(method, path)) {
    const response = await s.t.request(href);
    seen.push(`${href}: ${response.status} ${await response.text()}`);
  }
  return seen.join('\n');
}

describe('role matrix: the status of every endpoint for every caller', () => {
  let s: Scene;

  beforeAll(async () => {
    // The matrix lends a fresh loan to the same member, and places their fresh holds, for every row: the
    // caps have tests of their own (10 000 holds is the most CATALOGUE_MAX_HOLDS may be).
    s = await buildScene(await openTestCatalogue({ access: { maxActiveLoans: undefined, maxHolds: 10_000 } }));
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
    if (expected === 201)
      expect(response.headers.get('location')).toMatch(/^\/(books|authors|loans|users|copies|holds)\/\d+/);
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
/** The books collection: a librarian may also import a file of records there. */
const booksPage = { ...searchOnly, librarian: ['create', 'search', 'import'] };
const fullBook = ['borrow', 'update', 'edit', 'delete'];
/** A book with none on the shelf, as a librarian sees it: they may join its queue, and change it. */
const outBook = ['hold', 'update', 'edit'];
/** Its borrower's, or a librarian's. */
const ownOnly = { anonymous: 401, member: 200, otherMember: 404, librarian: 200 };
const librariansOnly = { anonymous: 401, member: 403, otherMember: 403, librarian: 200 };

const freshBookIn = (w: World) => addBook(w.t, unique('Control Book'), 1980, w.authorId);

/** A fresh book whose only copy is lent to the other member. */
async function bookLentToOther(w: World): Promise<number> {
  const id = await freshBookIn(w);
  await lend(w.t, id, w.otherMember.id);
  return id;
}

/** A fresh waiting hold of the member, on a book lent to the other member. */
async function waitingHoldOf(w: World): Promise<{ bookId: number; holdId: number }> {
  const bookId = await bookLentToOther(w);
  return { bookId, holdId: (await held(worldClient(w, 'member'), bookId)).id };
}

/** A fresh ready hold of the member: the other member's loan returned, its copy set aside for them. */
async function readyHoldOf(w: World): Promise<{ bookId: number; holdId: number }> {
  const bookId = await freshBookIn(w);
  const loanId = await lend(w.t, bookId, w.otherMember.id);
  const holdId = (await held(worldClient(w, 'member'), bookId)).id;
  await returned(w.t, loanId);
  return { bookId, holdId };
}

const borrowOf = (id: number): Unoffered => ({
  control: 'borrow',
  method: 'POST',
  href: `/books/${id}/borrow`,
  body: {},
});
const holdOf = (id: number): Unoffered => ({ control: 'hold', method: 'POST', href: `/books/${id}/holds`, body: {} });
const deleteOf = (id: number): Unoffered => ({ control: 'delete', method: 'DELETE', href: `/books/${id}` });
const renewOf = (id: number): Unoffered => ({ control: 'renew', method: 'POST', href: `/loans/${id}/renewals` });

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
    async make(w) {
      const id = await freshBookIn(w);
      // A copy is on the shelf: borrow it; nobody joins a queue for it.
      return { href: `/books/${id}`, unoffered: [holdOf(id)] };
    },
    status: publicDoc,
    controls: { anonymous: [], member: ['borrow'], otherMember: ['borrow'], librarian: fullBook },
  },
  {
    name: 'a book on loan to the member',
    async make(w) {
      const id = await freshBookIn(w);
      await lend(w.t, id, w.member.id);
      return { href: `/books/${id}`, unoffered: [borrowOf(id), deleteOf(id)] };
    },
    status: publicDoc,
    // The others may join its queue; the member, who has it, may not.
    controls: { anonymous: [], member: [], otherMember: ['hold'], librarian: outBook },
  },
  {
    name: 'a book with no copy on the shelf (lent to the other member)',
    async make(w) {
      const id = await bookLentToOther(w);
      return { href: `/books/${id}`, unoffered: [borrowOf(id), deleteOf(id)] };
    },
    status: publicDoc,
    controls: { anonymous: [], member: ['hold'], otherMember: [], librarian: outBook },
  },
  {
    name: 'a book the member holds (waiting)',
    async make(w) {
      const { bookId } = await waitingHoldOf(w);
      return { href: `/books/${bookId}`, unoffered: [borrowOf(bookId), deleteOf(bookId)] };
    },
    status: publicDoc,
    // Not twice in the queue; the other member has it on loan.
    controls: { anonymous: [], member: [], otherMember: [], librarian: outBook },
  },
  {
    name: "a book whose copy is set aside for the member's ready hold",
    async make(w) {
      const { bookId } = await readyHoldOf(w);
      return { href: `/books/${bookId}`, unoffered: [deleteOf(bookId)] };
    },
    status: publicDoc,
    // The member borrows the copy set aside; no copy is on the shelf, so the others may join the queue.
    // A librarian may lend that copy to the member at the desk: `borrow`, with borrower_id required.
    controls: { anonymous: [], member: ['borrow'], otherMember: ['hold'], librarian: ['borrow', ...outBook] },
  },
  {
    name: 'a book with a copy on the shelf and another on loan to the librarian',
    async make(w) {
      const id = await freshBookIn(w);
      const added = await w.t.send('POST', `/books/${id}/copies`, {});
      if (added.status !== 201) throw new Error(`adding a copy: ${added.status} ${await added.text()}`);
      const own = await borrow(w.t, id);
      if (own.status !== 201) throw new Error(`the librarian's own borrow: ${own.status} ${await own.text()}`);
      return { href: `/books/${id}`, unoffered: [deleteOf(id)] };
    },
    status: publicDoc,
    // Not a second copy for the librarian, but the one on the shelf to lend: borrower_id required.
    controls: { anonymous: [], member: ['borrow'], otherMember: ['borrow'], librarian: ['borrow', 'update', 'edit'] },
  },
  {
    name: "a book's copies page",
    make: async (w) => ({ href: `/books/${await freshBookIn(w)}/copies?page=1&per_page=20` }),
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['create'] },
  },
  {
    name: 'a copy on the shelf',
    async make(w) {
      const href = `/copies/${await firstCopyOf(w.t, await freshBookIn(w))}`;
      // Nothing to receive: it is not in transit.
      return { href, unoffered: [{ control: 'receive', method: 'POST', href: `${href}/receipts`, body: {} }] };
    },
    status: publicDoc,
    // A librarian moves any copy to another branch or item type (`update`), and withdraws one on the shelf.
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update', 'withdraw'] },
  },
  {
    name: 'a copy on loan',
    async make(w) {
      const loan = await json<LoanDocument>(
        await w.t.request(`/loans/${await lend(w.t, await freshBookIn(w), w.member.id)}`),
      );
      const href = `/copies/${loan.copy_id}`;
      return { href, unoffered: [{ control: 'withdraw', method: 'PATCH', href, body: { status: 'withdrawn' } }] };
    },
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update'] },
  },
  {
    name: 'a copy in transit',
    async make(w) {
      const loan = await json<LoanDocument>(
        await w.t.request(`/loans/${await lend(w.t, await freshBookIn(w), w.member.id)}`),
      );
      const branch = await w.t.send('POST', '/branches', { code: `transit-${++serial}`, name: unique('Branch') });
      if (branch.status !== 201) throw new Error(`adding a branch: ${branch.status} ${await branch.text()}`);
      const branchId = (await json<{ id: number }>(branch)).id;
      // Handed in away from its home, with nobody waiting: it travels home.
      const back = await w.t.send('PATCH', `/loans/${loan.id}`, { status: 'returned', branch_id: branchId });
      if (back.status !== 200) throw new Error(`returning ${loan.id}: ${back.status} ${await back.text()}`);
      return { href: `/copies/${loan.copy_id}` };
    },
    status: publicDoc,
    // Only a librarian receives it; it may still be withdrawn, or given another home.
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['receive', 'update', 'withdraw'] },
  },
  {
    name: 'a withdrawn copy',
    async make(w) {
      const href = `/copies/${await firstCopyOf(w.t, await freshBookIn(w))}`;
      const response = await w.t.send('PATCH', href, { status: 'withdrawn' });
      if (response.status !== 200) throw new Error(`withdrawing ${href}: ${response.status}`);
      return { href, unoffered: [{ control: 'withdraw', method: 'PATCH', href, body: { status: 'withdrawn' } }] };
    },
    status: publicDoc,
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['update'] },
  },
  {
    name: "a book's queue of holds",
    async make(w) {
      const { bookId } = await waitingHoldOf(w);
      return { href: `/books/${bookId}/holds?page=1&per_page=20` };
    },
    status: librariansOnly,
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
  },
  {
    name: "the member's waiting hold",
    make: async (w) => ({ href: `/holds/${(await waitingHoldOf(w)).holdId}` }),
    status: ownOnly,
    controls: {
      anonymous: [],
      member: ['cancel', 'change_pickup'],
      otherMember: [],
      librarian: ['cancel', 'change_pickup'],
    },
  },
  {
    name: "the member's ready hold",
    async make(w) {
      const href = `/holds/${(await readyHoldOf(w)).holdId}`;
      // Its copy is set aside at its pickup branch: that branch stays, even asked for again.
      const { pickup_branch_id } = await json<Doc>(await w.t.request(href));
      const body = { pickup_branch_id };
      return { href, unoffered: [{ control: 'change_pickup', method: 'PUT', href: `${href}/pickup-branch`, body }] };
    },
    status: ownOnly,
    controls: { anonymous: [], member: ['cancel'], otherMember: [], librarian: ['cancel'] },
  },
  {
    name: "the member's cancelled hold",
    async make(w) {
      const { holdId } = await waitingHoldOf(w);
      await cancelled(w.t, holdId);
      const href = `/holds/${holdId}`;
      return { href, unoffered: [{ control: 'cancel', method: 'PATCH', href, body: { status: 'cancelled' } }] };
    },
    status: ownOnly,
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
  },
  {
    name: "the member's holds page",
    async make(w) {
      await waitingHoldOf(w);
      return { href: `/users/${w.member.id}/holds?page=1&per_page=20` };
    },
    status: ownOnly,
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
  },
  {
    name: 'an available book with loan history',
    async make(w) {
      const id = await freshBookIn(w);
      await returned(w.t, await lend(w.t, id, w.otherMember.id));
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
    controls: booksPage,
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
    status: ownOnly,
    controls: { anonymous: [], member: ['return', 'renew'], otherMember: [], librarian: ['return', 'renew'] },
  },
  {
    name: "the member's loan renewed to the limit (2)",
    async make(w) {
      const id = await lend(w.t, await freshBookIn(w), w.member.id);
      for (let i = 0; i < 2; i++) await renewed(w.t, id);
      return { href: `/loans/${id}`, unoffered: [renewOf(id)] };
    },
    status: ownOnly,
    controls: { anonymous: [], member: ['return'], otherMember: [], librarian: ['return'] },
  },
  {
    name: "the member's overdue loan",
    async make(w) {
      const id = await lend(w.t, await freshBookIn(w), w.member.id);
      await makeOverdue(w.t, id);
      return { href: `/loans/${id}`, unoffered: [renewOf(id)] };
    },
    status: ownOnly,
    controls: { anonymous: [], member: ['return'], otherMember: [], librarian: ['return'] },
  },
  {
    name: "the member's loan of a book the other member holds",
    async make(w) {
      const bookId = await freshBookIn(w);
      const id = await lend(w.t, bookId, w.member.id);
      await held(worldClient(w, 'otherMember'), bookId);
      return { href: `/loans/${id}`, unoffered: [renewOf(id)] };
    },
    status: ownOnly,
    controls: { anonymous: [], member: ['return'], otherMember: [], librarian: ['return'] },
  },
  {
    name: "the member's returned loan",
    async make(w) {
      const id = await lend(w.t, await freshBookIn(w), w.member.id);
      await returned(w.t, id);
      const href = `/loans/${id}`;
      return {
        href,
        unoffered: [{ control: 'return', method: 'PATCH', href, body: { status: 'returned' } }, renewOf(id)],
      };
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
    // Their PIN is theirs to change and a librarian's to set.
    controls: { anonymous: [], member: ['set-pin'], otherMember: [], librarian: ['update', 'edit', 'set-pin'] },
  },
  {
    name: 'the users page',
    make: async () => ({ href: '/users?page=1&per_page=20' }),
    status: { anonymous: 401, member: 403, otherMember: 403, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: ['create'] },
  },
  {
    // Everyone signed in has one, at the same URI: their own (its members' controls: test/my-account.test.ts).
    name: 'my account',
    make: async () => ({ href: '/me' }),
    status: { anonymous: 401, member: 200, otherMember: 200, librarian: 200 },
    controls: { anonymous: [], member: [], otherMember: [], librarian: [] },
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
  // Whom a librarian lends to when they must name someone: the member at the desk.
  if (f.name === 'borrower_id') return w.member.id;
  if (Array.isArray(f.options)) return f.options.find((choice) => choice.value !== '')?.value;
  if (f.options) {
    // The choices live in a collection: pick its first item (asking as the librarian, who may list any).
    // Only a required field is chosen: an optional one (a borrow's copy_id, from the copies on the shelf,
    // which may be none) is left out, as a client leaves it.
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
 * The options of a field: labelled choices written inline, or a listing (as a librarian reads it) whose
 * items each carry the value field.
 */
async function expectOptions(w: World, f: FieldDoc): Promise<void> {
  if (Array.isArray(f.options)) {
    expect(f.options.length, `options of ${f.name}`).toBeGreaterThan(0);
    for (const choice of f.options) {
      expect(typeof choice.value, `options of ${f.name}`).toBe('string');
      expect(choice.prompt, `options of ${f.name}`).toMatch(/\S/);
    }
    return;
  }
  const href = f.options?.href as string;
  const response = await w.t.request(href);
  expect(response.status, `options of ${f.name} at ${href}`).toBe(200);
  const choices = await json<Record<string, unknown>[]>(response);
  expect(Array.isArray(choices), `options of ${f.name} at ${href}`).toBe(true);
  for (const choice of choices) {
    const valueField = (f.options as { valueField: string }).valueField;
    expect(typeof choice[valueField], `options of ${f.name} at ${href}`).toBe('number');
  }
}

/** A valid value for each required field the control gives none, chosen as a generic client would. */
async function requiredValues(w: World, c: ControlDoc): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  // Signing in takes a card and PIN or a token, neither required alone: a client signs in with what it has.
  const wanted = (f: FieldDoc) => f.required || f.name === 'token';
  for (const f of c.fields) if (f.value === undefined && wanted(f)) values[f.name] = await chooseValue(w, f);
  return values;
}

/** GETs a document as a caller: its status, and its controls when it is one. */
async function fetchControls(client: TestClient, href: string): Promise<{ status: number; doc?: Doc }> {
  const response = await client.request(href);
  if (response.status !== 200) return { status: response.status };
  return { status: 200, doc: await json<Doc>(response) };
}

const isRefusal = (status: number) => status >= 400 && status < 500;

/** The other callers, a librarian first. */
const otherRoles = (role: Role): Role[] =>
  (['librarian', 'member', 'otherMember', 'anonymous'] as const).filter((r) => r !== role);

describe('controls shown ⇔ allowed, for every caller and resource', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    // The librarian is every world's: the holds they place in their own rows (one for each book case
    // offering them `hold`, four) stay open, below the default cap of 10 (CATALOGUE_MAX_HOLDS).
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

    // Where a field's values come from (authors, users, a borrow's copies on the shelf) can be listed.
    for (const control of Object.values(seen.doc?.controls ?? {})) {
      for (const f of control.fields.filter((field) => field.options)) await expectOptions(seen.w, f);
    }

    // Every control shown, submitted on a fresh copy, succeeds.
    for (const name of shown) {
      const copy = await freshCopy(kase, role);
      const control = copy.doc?.controls[name];
      if (!control) throw new Error(`control ${name} missing from a fresh copy of ${kase.name}`);
      const response = await submit(worldClient(copy.w, role), control, await requiredValues(copy.w, control));
      expect(
        response.status,
        `${name}: ${control.method} ${control.href} as ${role}: ${await response.clone().text()}`,
      ).toBeGreaterThanOrEqual(200);
      expect(response.status, `${name}: ${control.method} ${control.href} as ${role}`).toBeLessThan(300);
    }

    // Every control another caller is shown here but this caller is not, sent by this caller, is refused:
    // a librarian's first (they are shown the most), then a member's (a borrow of a copy set aside for them).
    const checked = new Set(shown);
    for (const other of otherRoles(role)) {
      for (const name of kase.controls[other].filter((n) => !checked.has(n))) {
        checked.add(name);
        const copy = await freshCopy(kase, other);
        expect(Object.keys(copy.doc?.controls ?? {}).sort(), `controls as ${other}`).toEqual(
          [...kase.controls[other]].sort(),
        );
        const control = copy.doc?.controls[name];
        if (!control) throw new Error(`control ${name} missing from a fresh copy of ${kase.name}`);
        const response = await submit(worldClient(copy.w, role), control, await requiredValues(copy.w, control));
        expect(
          isRefusal(response.status),
          `${other}'s ${name}: ${control.method} ${control.href} as ${role} → ${response.status}`,
        ).toBe(true);
        await expectRefusal(response, response.status, `${other}'s ${name} as ${role}`);
      }
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
    'the root links as %s: each link shown can be followed; those only a librarian is shown are refused (overdue: narrowed)',
    async (role) => {
      const w = await newWorld(t);
      const client = worldClient(w, role);
      // An overdue loan each for the member and the other member.
      const overdue: Record<string, number> = {};
      for (const who of ['member', 'otherMember'] as const) {
        overdue[who] = await lend(w.t, await freshBookIn(w), w[who].id);
        await makeOverdue(w.t, overdue[who]);
      }
      const root = await json<Doc>(await client.request('/'));
      const librarianRoot = await json<Doc>(await worldClient(w, 'librarian').request('/'));
      const expectedRels = {
        anonymous: ['self', 'books', 'authors', 'search', 'suggestions', 'changes'],
        member: [
          'self',
          'books',
          'authors',
          'search',
          'suggestions',
          'changes',
          'me',
          'my_account',
          'loans',
          'branches',
        ],
        otherMember: [
          ...['self', 'books', 'authors', 'search', 'suggestions', 'changes', 'me', 'my_account', 'loans', 'branches'],
        ],
        librarian: [
          ...['self', 'books', 'authors', 'search', 'suggestions', 'changes', 'me', 'my_account', 'loans', 'overdue'],
          'users',
          ...['branches', 'patron_categories', 'item_types', 'loan_rules', 'desk'],
        ],
      }[role].concat('oai-pmh', 'sru', 'profile', 'service-desc', 'mcp');
      expect(root.links.map((l) => l.rel).sort()).toEqual([...expectedRels].sort());
      for (const link of root.links.filter((l) => !l.templated)) {
        expect((await client.request(link.href)).status, `${link.rel} ${link.href} as ${role}`).toBe(200);
      }
      const shownRels = new Set(root.links.map((l) => l.rel));
      for (const link of librarianRoot.links.filter((l) => !l.templated && !shownRels.has(l.rel))) {
        const response = await client.request(link.href);
        if (link.rel === 'overdue' && role !== 'anonymous') {
          // The overdue loans are a view of /loans, which a member reads narrowed to their own: followed by
          // a member, the link answers their overdue loans and nobody else's.
          expect(response.status, `${link.rel} ${link.href} as ${role}`).toBe(200);
          const page = await json<{ data: { id: number; borrower_id: number }[] }>(response);
          expect(page.data.map((loan) => loan.id)).toEqual([overdue[role]]);
          continue;
        }
        expect(isRefusal(response.status), `${link.rel} ${link.href} as ${role} → ${response.status}`).toBe(true);
      }
      if (role === 'librarian') {
        // The librarian's are everyone's (narrowed here to each member: the catalogue has others' too).
        const href = linkHref(root, 'overdue') as string;
        for (const who of ['member', 'otherMember'] as const) {
          const page = await json<{ data: { id: number }[] }>(
            await client.request(`${href}&filter=borrower_id:${w[who].id}`),
          );
          expect(page.data.map((loan) => loan.id)).toEqual([overdue[who]]);
        }
      }
    },
  );
});
