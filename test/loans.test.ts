/**
 * Borrowing and returning over HTTP: a member follows the book's `borrow` control and the loan's `return`
 * control; the book shows whether it is available (never to whom it is lent); history stays; the loans
 * listings filter and page like the catalogue's; the per-member cap is enforced and reflected in controls.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loans } from '../src/db/schema/index.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrow, borrowByControl, borrowed, returnByControl, returned, returnLoan } from './support/circulation.js';
import { dueInDays } from './support/clock.js';
import {
  type BookDocument,
  type CollectionDocument,
  type CopyDocument,
  controlOf,
  type ErrorDocument,
  type LoanDocument,
  type PageDoc,
  present,
  submit,
} from './support/documents.js';
import { expectError } from './support/errors.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  }
  return [];
}

/** A book's JSON names nobody: no borrower key, no link to the borrower, not their name. */
function expectNoBorrower(body: unknown, borrower: { id: number; name: string }) {
  const text = JSON.stringify(body);
  expect(text).not.toContain(borrower.name);
  expect(text).not.toMatch(new RegExp(`/users/${borrower.id}(?!\\d)`));
  const keys = keysOf(body);
  expect(keys).not.toContain('borrower_id');
  expect(keys).not.toContain('borrower');
}

const ids = (items: { id: number }[]) => items.map((item) => item.id);

describe('the borrow/return lifecycle (default rules: 14 days, no cap)', () => {
  let t: TestCatalogue;
  let author: number;

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Lifecycle Author');
  });
  afterAll(() => t.close());

  it('a member borrows by following the borrow control: 201, Location, the loan of its copy with ISO timestamps, due in 14 days', async () => {
    const bookId = await addBook(t, 'Borrowed By Control', 1950, author);
    const member = await addUser(t, 'Ophelia Borrowright', 'member');
    const asMember = t.as(member.token);
    // A new book has one copy: the one lent.
    const copies = await json<CollectionDocument<CopyDocument>>(await asMember.request(`/books/${bookId}/copies`));
    expect(copies).toHaveLength(1);
    const copyId = present(copies[0], 'the copy').id;

    const book = await json<BookDocument>(await asMember.request(`/books/${bookId}`));
    expect(book.controls.borrow).toMatchObject({ href: `/books/${bookId}/borrow`, method: 'POST', fields: [] });

    const before = Date.now();
    const response = await submit(asMember, controlOf(book, 'borrow'));
    expect(response.status).toBe(201);
    const loan = await json<LoanDocument>(response);
    expect(response.headers.get('location')).toBe(`/loans/${loan.id}`);
    expect(loan).toEqual({
      id: expect.any(Number),
      book_id: bookId,
      copy_id: copyId,
      borrower_id: member.id,
      borrowed_at: expect.stringMatching(ISO_UTC),
      due_at: expect.stringMatching(ISO_UTC),
      returned_at: null,
      renewals: 0,
      status: 'active',
      links: [
        { rel: 'self', href: `/loans/${loan.id}` },
        { rel: 'book', href: `/books/${bookId}` },
        { rel: 'copy', href: `/copies/${copyId}` },
        { rel: 'borrower', href: `/users/${member.id}` },
        { rel: 'explain', href: `/loans/${loan.id}/explain`, title: 'Why it has its terms' },
        { rel: 'collection', href: '/loans?page=1&per_page=20' },
      ],
      controls: {
        return: expect.objectContaining({
          href: `/loans/${loan.id}`,
          method: 'PATCH',
          fields: [
            expect.objectContaining({ name: 'status', value: 'returned' }),
            // Where it is handed in: the branch that lent it unless changed.
            expect.objectContaining({ name: 'branch_id', required: false, value: expect.any(Number) }),
          ],
        }),
        // Active, not overdue, never renewed, and nobody holds the book.
        renew: {
          href: `/loans/${loan.id}/renewals`,
          method: 'POST',
          title: 'Renew this loan',
          contentType: 'application/json',
          fields: [],
        },
      },
    });
    expect(Object.keys(loan.controls)).toEqual(['return', 'renew']);
    const borrowedAt = Date.parse(loan.borrowed_at);
    // The database clock and this process's are the same machine's; a wide margin keeps this about meaning.
    expect(Math.abs(borrowedAt - before)).toBeLessThan(5 * 60 * 1000);
    expect(loan.due_at).toBe(dueInDays(borrowedAt, 14));

    // The Location answers the same loan, to its borrower and to a librarian.
    expect(await json<LoanDocument>(await asMember.request(`/loans/${loan.id}`))).toEqual(loan);
    const asLibrarian = await json<LoanDocument>(await t.request(`/loans/${loan.id}`));
    expect(asLibrarian).toMatchObject({ id: loan.id, borrower_id: member.id, due_at: loan.due_at });
  });

  it('a client-sent due_at is refused (400, details.due_at) and the book stays available', async () => {
    const bookId = await addBook(t, 'Due Date Is Not Yours', 1951, author);
    const member = await addUser(t, 'Percival Duedate', 'member');
    const response = await t.as(member.token).send('POST', `/books/${bookId}/borrow`, {
      due_at: '2099-01-01T00:00:00.000Z',
    });
    const body = await expectError(response, 400);
    expect(body.error.details).toHaveProperty('due_at');
    const book = await json<BookDocument>(await t.request(`/books/${bookId}`));
    expect(book).toMatchObject({ available: true, due_at: null });
    const history = await json<CollectionDocument<LoanDocument>>(await t.request(`/loans?filter=book_id:${bookId}`));
    expect(history).toEqual([]);
  });

  it('a borrowed book shows available:false and the due date, in its document, a page and the bare array, never the borrower', async () => {
    const bookAuthor = await addAuthor(t, 'Availability Author');
    const bookId = await addBook(t, 'Shown As On Loan', 1952, bookAuthor);
    const name = 'Quintessa Hiddenname';
    const member = { name, ...(await addUser(t, name, 'member')) };
    const borrowed = await borrowByControl(t.as(member.token), bookId);
    expect(borrowed.status).toBe(201);
    const loan = await json<LoanDocument>(borrowed);

    for (const client of [t.anonymous, t.as(member.token), t]) {
      const document = await json<BookDocument>(await client.request(`/books/${bookId}`));
      expect(document).toMatchObject({ id: bookId, available: false, due_at: loan.due_at });
      expectNoBorrower(document, member);

      const page = await json<PageDoc<BookDocument>>(
        await client.request(`/books?filter=author_id:${bookAuthor}&page=1`),
      );
      expect(page.data).toHaveLength(1);
      expect(page.data[0]).toMatchObject({ id: bookId, available: false, due_at: loan.due_at });
      expectNoBorrower(page, member);

      const bare = await json<CollectionDocument<BookDocument>>(
        await client.request(`/books?filter=author_id:${bookAuthor}`),
      );
      expect(bare).toHaveLength(1);
      expect(bare[0]).toMatchObject({ id: bookId, available: false, due_at: loan.due_at });
      expectNoBorrower(bare, member);

      const byAuthor = await json<CollectionDocument<BookDocument>>(
        await client.request(`/authors/${bookAuthor}/books`),
      );
      expect(byAuthor[0]).toMatchObject({ id: bookId, available: false, due_at: loan.due_at });
      expectNoBorrower(byAuthor, member);
    }
  });

  it('a book on loan cannot be borrowed again: 409 naming the due date and the hold, for another member and for a librarian; its holder already has it', async () => {
    const bookId = await addBook(t, 'Already Lent Out', 1953, author);
    const holder = await addUser(t, 'Rosalind Firstcome', 'member');
    const other = await addUser(t, 'Sebastian Secondcome', 'member');
    const loan = await json<LoanDocument>(await borrowByControl(t.as(holder.token), bookId));

    // Nobody is offered borrow on a book on loan; everyone but its holder is offered a hold instead.
    for (const [client, hold] of [
      [t.as(holder.token), false],
      [t.as(other.token), true],
      [t, true],
    ] as const) {
      const book = await json<BookDocument>(await client.request(`/books/${bookId}`));
      expect(book).toMatchObject({ available: false, due_at: loan.due_at, copies_total: 1, copies_available: 0 });
      expect(book.controls).not.toHaveProperty('borrow');
      if (hold) expect(book.controls.hold).toMatchObject({ href: `/books/${bookId}/holds`, method: 'POST' });
      else expect(book.controls).not.toHaveProperty('hold');
    }

    const noCopy =
      `no copy of book ${bookId} is available to borrow now (the next is due back ${loan.due_at}); ` +
      "place a hold (the book's `hold` control) to be next in line";
    const attempts: [Response, string][] = [
      [await borrow(t.as(other.token), bookId), noCopy],
      [await borrow(t.as(holder.token), bookId), `you already have a copy of book ${bookId} on loan`],
      [await borrow(t, bookId), noCopy],
      [await borrow(t, bookId, { borrower_id: other.id }), noCopy],
    ];
    for (const [response, message] of attempts) {
      const body = await expectError(response, 409);
      expect(body.error.message).toBe(message);
    }
    const history = await json<CollectionDocument<LoanDocument>>(await t.request(`/loans?filter=book_id:${bookId}`));
    expect(ids(history)).toEqual([loan.id]);
  });

  it('returning follows the return control (200, returned_at, status); a second return is 409; loans cannot be deleted', async () => {
    const bookId = await addBook(t, 'Returned In Time', 1954, author);
    const member = await addUser(t, 'Tobias Bringsback', 'member');
    const asMember = t.as(member.token);
    const loan = await json<LoanDocument>(await borrowByControl(asMember, bookId));

    const response = await returnByControl(asMember, loan.id);
    expect(response.status).toBe(200);
    const returned = await json<LoanDocument>(response);
    expect(returned).toMatchObject({
      id: loan.id,
      book_id: bookId,
      borrower_id: member.id,
      borrowed_at: loan.borrowed_at,
      due_at: loan.due_at,
      returned_at: expect.stringMatching(ISO_UTC),
      status: 'returned',
    });
    expect(Date.parse(returned.returned_at ?? '')).toBeGreaterThanOrEqual(Date.parse(loan.borrowed_at));
    expect(returned.controls).toEqual({});
    expect(await json<LoanDocument>(await asMember.request(`/loans/${loan.id}`))).toEqual(returned);

    for (const client of [asMember, t]) {
      const again = await returnLoan(client, loan.id);
      await expectError(again, 409);
    }
    const after = await json<LoanDocument>(await asMember.request(`/loans/${loan.id}`));
    expect(after.returned_at).toBe(returned.returned_at);

    for (const client of [asMember, t]) {
      const deletion = await client.request(`/loans/${loan.id}`, { method: 'DELETE' });
      await expectError(deletion, 405);
      expect(deletion.headers.get('allow')).not.toContain('DELETE');
    }
    expect((await t.request(`/loans/${loan.id}`)).status).toBe(200);
  });

  it('only {"status":"returned"} returns a loan', async () => {
    const bookId = await addBook(t, 'Strict Return Body', 1955, author);
    const member = await addUser(t, 'Ursula Strictbody', 'member');
    const asMember = t.as(member.token);
    const loan = await json<LoanDocument>(await borrowByControl(asMember, bookId));
    for (const body of [{ status: 'active' }, { status: 'lost' }, {}, { returned_at: '2020-01-01T00:00:00.000Z' }]) {
      const response = await asMember.send('PATCH', `/loans/${loan.id}`, body);
      await expectError(response, 400, { what: JSON.stringify(body) });
    }
    expect(await json<LoanDocument>(await asMember.request(`/loans/${loan.id}`))).toMatchObject({
      status: 'active',
      returned_at: null,
    });
  });

  it('after a return the book is available again, can be borrowed again, and both loans stay in its history', async () => {
    const bookId = await addBook(t, 'Borrowed Twice Over', 1956, author);
    const first = await addUser(t, 'Valentina Firstloan', 'member');
    const second = await addUser(t, 'Wilhelmina Secondloan', 'member');
    const firstLoan = await json<LoanDocument>(await borrowByControl(t.as(first.token), bookId));
    expect((await returnByControl(t.as(first.token), firstLoan.id)).status).toBe(200);

    const book = await json<BookDocument>(await t.as(second.token).request(`/books/${bookId}`));
    expect(book).toMatchObject({ available: true, due_at: null });
    expect(book.controls.borrow).toBeDefined();

    const response = await submit(t.as(second.token), controlOf(book, 'borrow'));
    expect(response.status).toBe(201);
    const secondLoan = await json<LoanDocument>(response);
    expect(secondLoan).toMatchObject({ book_id: bookId, borrower_id: second.id, status: 'active' });

    const history = await json<CollectionDocument<LoanDocument>>(await t.request(`/loans?filter=book_id:${bookId}`));
    expect(history.map((l: { id: number; status: string }) => [l.id, l.status])).toEqual([
      [firstLoan.id, 'returned'],
      [secondLoan.id, 'active'],
    ]);
    expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({
      available: false,
      due_at: secondLoan.due_at,
    });
  });

  it('a librarian lends on a member’s behalf with borrower_id; the member sees and may return that loan', async () => {
    const bookId = await addBook(t, 'Lent By The Desk', 1957, author);
    const member = await addUser(t, 'Xavier Deskloan', 'member');

    const book = await json<BookDocument>(await t.request(`/books/${bookId}`));
    expect(book.controls.borrow?.fields).toEqual([
      expect.objectContaining({
        name: 'borrower_id',
        type: 'integer',
        required: false,
        options: expect.objectContaining({ href: expect.stringMatching(/^\/users(\?|$)/) }),
      }),
      expect.objectContaining({
        name: 'copy_id',
        type: 'integer',
        required: false,
        options: expect.objectContaining({
          href: `/books/${bookId}/copies?filter=status%3Aavailable&fields=id%2Clabel`,
        }),
      }),
      // The desk lending it: the librarian's home branch unless named.
      expect.objectContaining({ name: 'branch_id', type: 'integer', required: false }),
    ]);
    const response = await submit(t, controlOf(book, 'borrow'), { borrower_id: member.id });
    expect(response.status).toBe(201);
    const loan = await json<LoanDocument>(response);
    expect(loan).toMatchObject({ book_id: bookId, borrower_id: member.id, status: 'active' });
    expect(loan.links).toContainEqual({ rel: 'borrower', href: `/users/${member.id}` });

    const asMember = t.as(member.token);
    const mine = await json<CollectionDocument<LoanDocument>>(await asMember.request('/loans'));
    expect(ids(mine)).toEqual([loan.id]);
    const own = await json<LoanDocument>(await asMember.request(`/loans/${loan.id}`));
    expect(own.controls.return).toBeDefined();
  });

  it('a borrower_id naming no user is 422 (details.borrower_id) and lends nothing', async () => {
    const bookId = await addBook(t, 'Lent To Nobody', 1958, author);
    const response = await borrow(t, bookId, { borrower_id: 987654 });
    const body = await expectError(response, 422);
    expect(body.error.details).toHaveProperty('borrower_id');
    expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({
      available: true,
      due_at: null,
    });
    expect(await json<CollectionDocument<LoanDocument>>(await t.request(`/loans?filter=book_id:${bookId}`))).toEqual(
      [],
    );
  });

  it('borrowing a book that does not exist is 404; borrowing anonymously is 401', async () => {
    const missing = await borrow(t, 987654);
    await expectError(missing, 404);

    const bookId = await addBook(t, 'Not For The Anonymous', 1959, author);
    const anonymous = await borrow(t.anonymous, bookId);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({ available: true });
  });
});

describe('the loan period is the library’s setting', () => {
  let t: TestCatalogue;
  afterAll(() => t?.close());

  it('with loanDays 7, due_at is 7 days after borrowed_at', async () => {
    t = await openTestCatalogue({ access: { loanDays: 7 } });
    const author = await addAuthor(t, 'Week Loan Author');
    const bookId = await addBook(t, 'Due In A Week', 1960, author);
    const member = await addUser(t, 'Yolanda Weekly', 'member');
    const response = await borrowByControl(t.as(member.token), bookId);
    expect(response.status).toBe(201);
    const loan = await json<LoanDocument>(response);
    expect(loan.borrowed_at).toMatch(ISO_UTC);
    expect(loan.due_at).toMatch(ISO_UTC);
    expect(loan.due_at).toBe(dueInDays(loan.borrowed_at, 7));
    expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({
      available: false,
      due_at: loan.due_at,
    });
  });
});

/**
 * Listings over an exactly known history:
 *   L1 alice book1 returned · L2 alice book2 active, overdue · L3 alice book3 active
 *   L4 bruno book4 active · L5 bruno book1 returned;  book5 never lent.
 */
describe('listing loans', () => {
  let t: TestCatalogue;
  let alice: { id: number; token: string };
  let bruno: { id: number; token: string };
  const book: number[] = [];
  const loan: number[] = [];

  beforeAll(async () => {
    t = await openTestCatalogue();
    const author = await addAuthor(t, 'Listing Author');
    for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) {
      book.push(await addBook(t, `Loan Listing ${title}`, 1970, author));
    }
    alice = await addUser(t, 'Alice Listing', 'member');
    bruno = await addUser(t, 'Bruno Listing', 'member');
    const lend = async (who: { token: string }, bookId: number) => (await borrowed(t.as(who.token), bookId)).id;
    const giveBack = (who: { token: string }, loanId: number) => returned(t.as(who.token), loanId);
    loan.push(await lend(alice, book[0] as number));
    await giveBack(alice, loan[0] as number);
    loan.push(await lend(alice, book[1] as number));
    loan.push(await lend(alice, book[2] as number));
    loan.push(await lend(bruno, book[3] as number));
    loan.push(await lend(bruno, book[0] as number));
    await giveBack(bruno, loan[4] as number);
    // L2 overdue: borrowed 20 days ago, due 6 days ago.
    await t.database.db
      .update(loans)
      .set({ borrowedAt: sql`now() - interval '20 days'`, dueAt: sql`now() - interval '6 days'` })
      .where(eq(loans.id, loan[1] as number));
  });
  afterAll(() => t.close());

  const L = (n: number) => loan[n - 1] as number;
  const B = (n: number) => book[n - 1] as number;
  /** A listing of loans: unpaged (an array) unless `T` names the page the path asks for. */
  const list = async <T = CollectionDocument<LoanDocument>>(client: TestClient, path: string) => {
    const response = await client.request(path);
    expect(response.status, path).toBe(200);
    return json<T>(response);
  };

  it('lists every loan for a librarian, by id, as a bare array', async () => {
    const all = await list(t, '/loans');
    expect(ids(all)).toEqual([L(1), L(2), L(3), L(4), L(5)]);
    expect(all[0]).toMatchObject({ book_id: B(1), borrower_id: alice.id, status: 'returned' });
    expect(all[0]).not.toHaveProperty('controls');
  });

  it('filters by book_id, borrower_id, status and overdue, and combines them', async () => {
    const cases: [string, number[]][] = [
      [`filter=book_id:${B(1)}`, [L(1), L(5)]],
      [`filter=book_id:${B(5)}`, []],
      [`filter=borrower_id:${bruno.id}`, [L(4), L(5)]],
      ['filter=status:active', [L(2), L(3), L(4)]],
      ['filter=status:overdue', [L(2)]],
      ['filter=status:returned', [L(1), L(5)]],
      ['filter=status:active&filter=status:returned', [L(1), L(2), L(3), L(4), L(5)]],
      ['filter=overdue:true', [L(2)]],
      ['filter=overdue:false', [L(1), L(3), L(4), L(5)]],
      [`filter=borrower_id:${alice.id}&filter=status:active`, [L(2), L(3)]],
      [`filter=borrower_id:${bruno.id}&filter=overdue:true`, []],
    ];
    for (const [query, expected] of cases) {
      expect(ids(await list(t, `/loans?${query}`)), query).toEqual(expected);
    }
  });

  it('an overdue loan shows its past due date and status overdue; it may be returned, not renewed', async () => {
    const overdue = await list<LoanDocument>(t.as(alice.token), `/loans/${L(2)}`);
    expect(overdue).toMatchObject({ status: 'overdue', returned_at: null });
    expect(Object.keys(overdue.controls)).toEqual(['return']);
    expect(Date.parse(overdue.due_at)).toBeLessThan(Date.now());
    expect(Date.parse(overdue.due_at) - Date.parse(overdue.borrowed_at)).toBe(14 * DAY_MS);
  });

  it('filters /users/{id}/loans the same way, within that borrower', async () => {
    const cases: [string, number[]][] = [
      [`/users/${alice.id}/loans`, [L(1), L(2), L(3)]],
      [`/users/${alice.id}/loans?filter=status:returned`, [L(1)]],
      [`/users/${alice.id}/loans?filter=overdue:true`, [L(2)]],
      [`/users/${alice.id}/loans?filter=book_id:${B(1)}`, [L(1)]],
      [`/users/${alice.id}/loans?filter=borrower_id:${bruno.id}`, []],
      [`/users/${bruno.id}/loans?filter=status:active`, [L(4)]],
      [`/users/${bruno.id}/loans?filter=overdue:true`, []],
    ];
    for (const [path, expected] of cases) {
      expect(ids(await list(t, path)), path).toEqual(expected);
      if (path.startsWith(`/users/${alice.id}/`))
        expect(ids(await list(t.as(alice.token), path)), path).toEqual(expected);
    }
  });

  it('pages with meta and links', async () => {
    const first = await list<PageDoc<LoanDocument>>(t, '/loans?per_page=2');
    expect(first.meta).toEqual({ page: 1, per_page: 2, total_pages: 3, total_items: 5 });
    expect(ids(first.data)).toEqual([L(1), L(2)]);
    const rels = first.links.map((l: { rel: string }) => l.rel);
    expect(rels).toEqual(expect.arrayContaining(['self', 'first', 'last', 'next']));
    expect(rels).not.toContain('prev');

    const last = await list<PageDoc<LoanDocument>>(t, '/loans?per_page=2&page=3');
    expect(last.meta).toEqual({ page: 3, per_page: 2, total_pages: 3, total_items: 5 });
    expect(ids(last.data)).toEqual([L(5)]);

    const filtered = await list<PageDoc<LoanDocument>>(t, '/loans?filter=status:active&page=1');
    expect(filtered.meta).toEqual({ page: 1, per_page: 20, total_pages: 1, total_items: 3 });

    const past = await list<PageDoc<LoanDocument>>(t, '/loans?page=9&per_page=2');
    expect(past.data).toEqual([]);
    expect(past.meta).toEqual({ page: 9, per_page: 2, total_pages: 3, total_items: 5 });

    const own = await list<PageDoc<LoanDocument>>(t.as(bruno.token), `/users/${bruno.id}/loans?per_page=1`);
    expect(own.meta).toEqual({ page: 1, per_page: 1, total_pages: 2, total_items: 2 });
    expect(ids(own.data)).toEqual([L(4)]);
  });

  it('sorts by book_id and borrower_id, ties by id', async () => {
    expect(ids(await list(t, '/loans?sort=-id'))).toEqual([L(5), L(4), L(3), L(2), L(1)]);
    expect(ids(await list(t, '/loans?sort=book_id'))).toEqual([L(1), L(5), L(2), L(3), L(4)]);
    expect(ids(await list(t, '/loans?sort=-borrower_id'))).toEqual([L(4), L(5), L(1), L(2), L(3)]);
  });

  it('fields selects status and due_at, in both forms; the self link stays', async () => {
    const bare = await list(t, '/loans?fields=status,due_at');
    expect(bare).toHaveLength(5);
    for (const item of bare) {
      expect(Object.keys(item).sort()).toEqual(['due_at', 'links', 'status']);
      expect(item.due_at).toMatch(ISO_UTC);
    }
    expect(bare.map((l: { status: string }) => l.status)).toEqual([
      'returned',
      'overdue',
      'active',
      'active',
      'returned',
    ]);
    expect(bare[0]?.links).toContainEqual({ rel: 'self', href: `/loans/${L(1)}` });

    const page = await list<PageDoc<LoanDocument>>(t, '/loans?fields=borrowed_at,returned_at&page=1');
    for (const item of page.data) expect(Object.keys(item).sort()).toEqual(['borrowed_at', 'links', 'returned_at']);
  });

  it('query, author and bad filters are 400 naming the parameter', async () => {
    for (const base of ['/loans', `/users/${alice.id}/loans`]) {
      for (const [query, parameter] of [
        ['query=hobbit', 'query'],
        ['author=tolkien', 'author'],
        ['filter=status:lost', 'filter'],
        ['filter=overdue:maybe', 'filter'],
        ['filter=book_id:abc', 'filter'],
        ['filter=title:x', 'filter'],
        ['fields=title', 'fields'],
        ['sort=due_at', 'sort'],
      ] as const) {
        const response = await t.request(`${base}?${query}`);
        const body = await expectError(response, 400, { what: `${base}?${query}`, message: parameter });
        expect(body.error.details).toHaveProperty(parameter);
      }
    }
  });

  it('a member’s /loans shows only their own, whatever the filter; another’s loans are 404', async () => {
    const asAlice = t.as(alice.token);
    expect(ids(await list(asAlice, '/loans'))).toEqual([L(1), L(2), L(3)]);
    expect(ids(await list(asAlice, `/loans?filter=borrower_id:${bruno.id}`))).toEqual([]);
    expect(ids(await list(asAlice, `/loans?filter=book_id:${B(1)}`))).toEqual([L(1)]);
    expect((await list<PageDoc<LoanDocument>>(asAlice, '/loans?page=1')).meta.total_items).toBe(3);
    expect(ids(await list(t.as(bruno.token), '/loans'))).toEqual([L(4), L(5)]);

    for (const path of [`/loans/${L(4)}`, `/users/${bruno.id}/loans`]) {
      const response = await asAlice.request(path);
      const text = await response.clone().text();
      await expectError(response, 404, { what: path });
      expect(text).not.toContain('Bruno');
    }
  });

  it('books filter on availability', async () => {
    expect(ids(await list<CollectionDocument<BookDocument>>(t, '/books?filter=available:false'))).toEqual([
      B(2),
      B(3),
      B(4),
    ]);
    expect(ids(await list<CollectionDocument<BookDocument>>(t, '/books?filter=available:true'))).toEqual([B(1), B(5)]);
    const page = await list<PageDoc<BookDocument>>(t.anonymous, '/books?filter=available:false&page=1');
    expect(page.meta.total_items).toBe(3);
    for (const item of page.data)
      expect(item).toMatchObject({ available: false, due_at: expect.stringMatching(ISO_UTC) });
  });

  it('a book with loan history cannot be deleted (409) and offers no delete control; one without history can', async () => {
    const kept = await list<BookDocument>(t, `/books/${B(1)}`);
    expect(kept).toMatchObject({ available: true, due_at: null });
    expect(Object.keys(kept.controls)).toEqual(expect.arrayContaining(['borrow', 'update', 'edit']));
    expect(kept.controls).not.toHaveProperty('delete');

    const refused = await t.request(`/books/${B(1)}`, { method: 'DELETE' });
    await expectError(refused, 409);
    expect((await t.request(`/books/${B(1)}`)).status).toBe(200);
    expect(ids(await list(t, `/loans?filter=book_id:${B(1)}`))).toEqual([L(1), L(5)]);

    const onLoan = await list<BookDocument>(t, `/books/${B(2)}`);
    expect(onLoan.controls).not.toHaveProperty('delete');
    expect((await t.request(`/books/${B(2)}`, { method: 'DELETE' })).status).toBe(409);

    const neverLent = await list<BookDocument>(t, `/books/${B(5)}`);
    expect(neverLent.controls.delete).toMatchObject({ href: `/books/${B(5)}`, method: 'DELETE' });
  });
});

describe('the cap on a member’s active loans (maxActiveLoans 2)', () => {
  let t: TestCatalogue;
  let author: number;

  beforeAll(async () => {
    t = await openTestCatalogue({ access: { maxActiveLoans: 2 } });
    author = await addAuthor(t, 'Cap Author');
  });
  afterAll(() => t.close());

  it('a third borrow is 409 with a clear message; borrow is then not offered to that member, but to others; a return lifts it', async () => {
    const [one, two, three] = [
      await addBook(t, 'Capped First', 1980, author),
      await addBook(t, 'Capped Second', 1981, author),
      await addBook(t, 'Capped Third', 1982, author),
    ] as [number, number, number];
    const capped = await addUser(t, 'Zacharias Capped', 'member');
    const other = await addUser(t, 'Adelheid Uncapped', 'member');
    const asCapped = t.as(capped.token);

    const first = await json<LoanDocument>(await borrowByControl(asCapped, one));
    expect((await borrowByControl(asCapped, two)).status).toBe(201);

    const third = await json<BookDocument>(await asCapped.request(`/books/${three}`));
    expect(third.available).toBe(true);
    expect(third.controls).not.toHaveProperty('borrow');
    const refused = await borrow(asCapped, three);
    const body = await expectError(refused, 409);
    expect(body.error.message).toMatch(/2 active loans/);

    // A librarian lending to the capped member is refused the same way.
    const lent = await borrow(t, three, { borrower_id: capped.id });
    expect(lent.status).toBe(409);
    expect((await json<ErrorDocument>(lent)).error.message).toMatch(/2 active loans/);
    expect(await json<BookDocument>(await t.request(`/books/${three}`))).toMatchObject({
      available: true,
      due_at: null,
    });

    const forOther = await json<BookDocument>(await t.as(other.token).request(`/books/${three}`));
    expect(forOther.controls.borrow).toBeDefined();

    expect((await returnByControl(asCapped, first.id)).status).toBe(200);
    const response = await borrowByControl(asCapped, three);
    expect(response.status).toBe(201);
    expect(await json<LoanDocument>(response)).toMatchObject({
      book_id: three,
      borrower_id: capped.id,
      status: 'active',
    });
    expect(
      ids(await json<CollectionDocument<LoanDocument>>(await asCapped.request('/loans?filter=status:active'))).length,
    ).toBe(2);
  });

  it('librarians are not capped when borrowing for themselves', async () => {
    for (const title of ['Desk Copy One', 'Desk Copy Two', 'Desk Copy Three']) {
      const bookId = await addBook(t, title, 1990, author);
      const response = await borrowByControl(t, bookId);
      expect(response.status, title).toBe(201);
    }
  });
});

describe('the default lending policy', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    // No access options: the catalogue as an operator gets it without setting CATALOGUE_MAX_ACTIVE_LOANS.
    t = await openTestCatalogue();
  });
  afterAll(() => t.close());

  it('caps a member at 10 active loans, so one member cannot borrow the whole library', async () => {
    const author = await addAuthor(t, 'Default Cap Author');
    const member = await addUser(t, 'Greedy Reader', 'member');
    const asMember = t.as(member.token);
    const books: number[] = [];
    for (let i = 0; i < 11; i++) books.push(await addBook(t, `Default Cap ${i}`, 1950 + i, author));

    for (const bookId of books.slice(0, 10)) expect((await borrowByControl(asMember, bookId)).status).toBe(201);
    const eleventh = books[10] as number;
    expect((await json<BookDocument>(await asMember.request(`/books/${eleventh}`))).controls).not.toHaveProperty(
      'borrow',
    );
    const refused = await borrow(asMember, eleventh);
    expect(refused.status).toBe(409);
    expect((await json<ErrorDocument>(refused)).error.message).toMatch(/10 active loans/);
  });
});
