/**
 * Races the database must settle: many simultaneous borrows of one book lend it once; simultaneous
 * returns of one loan return it once; one member's simultaneous borrows respect the cap.
 */
import { and, count, eq, isNull } from 'drizzle-orm';
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
import { borrow, borrowed, returnLoan } from './support/circulation.js';
import type { BookDocument, CollectionDocument, LoanDocument } from './support/documents.js';
import { expectError } from './support/errors.js';

/** How many responses had each status. */
function tally(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

async function activeLoans(t: TestCatalogue, where: { bookId?: number; borrowerId?: number }) {
  const conditions = [isNull(loans.returnedAt)];
  if (where.bookId !== undefined) conditions.push(eq(loans.bookId, where.bookId));
  if (where.borrowerId !== undefined) conditions.push(eq(loans.borrowerId, where.borrowerId));
  const [row] = await t.database.db
    .select({ n: count() })
    .from(loans)
    .where(and(...conditions));
  return row?.n ?? 0;
}

/**
 * Opens the database's connection pool wide (on PostgreSQL) before a race: otherwise the first request
 * can finish on the one open connection while the others still wait for theirs, and nothing overlaps.
 */
async function warmUp(client: TestClient) {
  await Promise.all(Array.from({ length: 20 }, () => client.request('/books?page=1')));
}

/** Every 409 is in the error shape; answers the bodies. */
async function conflicts(responses: Response[]) {
  const bodies = [];
  for (const response of responses.filter((r) => r.status === 409)) bodies.push(await expectError(response, 409));
  return bodies;
}

describe('simultaneous borrows and returns (no cap)', () => {
  let t: TestCatalogue;
  let author: number;

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Contended Author');
  });
  afterAll(() => t.close());

  it('40 members borrowing one book at once: one 201, 39 × 409, one active loan', async () => {
    const bookId = await addBook(t, 'The Most Wanted Book', 2001, author);
    const members = [];
    for (let i = 0; i < 40; i++) members.push(await addUser(t, `Racing Member ${i}`, 'member'));

    await warmUp(t);
    const responses = await Promise.all(members.map((member) => borrow(t.as(member.token), bookId)));
    expect(tally(responses)).toEqual({ 201: 1, 409: 39 });

    const winner = responses.find((r) => r.status === 201) as Response;
    const loan = await json<LoanDocument>(winner);
    expect(members.map((m) => m.id)).toContain(loan.borrower_id);
    for (const body of await conflicts(responses)) expect(body.error.message).toContain(loan.due_at);

    expect(await activeLoans(t, { bookId })).toBe(1);
    const history = await json<CollectionDocument<LoanDocument>>(await t.request(`/loans?filter=book_id:${bookId}`));
    expect(history.map((l: { id: number }) => l.id)).toEqual([loan.id]);
    expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({
      available: false,
      due_at: loan.due_at,
    });
  });

  it('its borrower and a librarian returning one loan at once: one 200, the rest 409', async () => {
    const bookId = await addBook(t, 'Returned From Both Sides', 2002, author);
    const member = await addUser(t, 'Double Returner', 'member');
    const borrowed = await borrow(t.as(member.token), bookId);
    expect(borrowed.status).toBe(201);
    const loan = await json<LoanDocument>(borrowed);

    await warmUp(t);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => returnLoan(i % 2 === 0 ? t.as(member.token) : t, loan.id)),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 19 });
    await conflicts(responses);

    const returned = await json<LoanDocument>(responses.find((r) => r.status === 200) as Response);
    expect(returned).toMatchObject({ id: loan.id, status: 'returned' });
    const stored = await json<LoanDocument>(await t.request(`/loans/${loan.id}`));
    expect(stored.returned_at).toBe(returned.returned_at);
    expect(await activeLoans(t, { bookId })).toBe(0);
    expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({
      available: true,
      due_at: null,
    });
  });
});

describe('one member borrowing many books at once, with the cap at 1', () => {
  let t: TestCatalogue;
  afterAll(() => t?.close());

  it('10 simultaneous borrows of 10 books: one 201, nine 409, one active loan', async () => {
    t = await openTestCatalogue({ access: { maxActiveLoans: 1 } });
    const author = await addAuthor(t, 'Capped Race Author');
    const books = [];
    for (let i = 0; i < 10; i++) books.push(await addBook(t, `Capped Race Book ${i}`, 2010, author));
    const member = await addUser(t, 'Greedy Reader', 'member');
    const asMember = t.as(member.token);

    await warmUp(asMember);
    const responses = await Promise.all(books.map((id) => borrow(asMember, id)));
    expect(tally(responses)).toEqual({ 201: 1, 409: 9 });
    await conflicts(responses);

    expect(await activeLoans(t, { borrowerId: member.id })).toBe(1);
    const mine = await json<CollectionDocument<LoanDocument>>(await asMember.request('/loans'));
    expect(mine).toHaveLength(1);
    const available = await json<CollectionDocument<BookDocument>>(
      await t.request(`/books?filter=author_id:${author}&filter=available:true`),
    );
    expect(available).toHaveLength(9);
  });
});

describe('simultaneous reads of books', () => {
  let t: TestCatalogue;
  afterAll(() => t?.close());

  it('reads made at once, of the same, different and missing books, each answer what a read alone does', async () => {
    t = await openTestCatalogue();
    const author = await addAuthor(t, 'Much Read Author');
    const books = [];
    for (let i = 0; i < 6; i++) books.push(await addBook(t, `Much Read Book ${i}`, 1990 + i, author));
    const member = await addUser(t, 'Eager Reader', 'member');
    const asMember = t.as(member.token);
    // One book out with the member (their read shows their loan), one changed since it was added.
    await borrowed(asMember, books[0] as number);
    expect((await t.send('PATCH', `/books/${books[1]}`, { title: 'Much Read Book, renamed' })).status).toBe(200);
    const missing = 2_000_000_000;
    const callers = [t, t.anonymous, asMember];
    const asked = [...books, books[0], books[1], books[0], missing].flatMap((id) =>
      callers.map((caller) => ({ caller, path: `/books/${id}` })),
    );

    const alone = [];
    for (const { caller, path } of asked) alone.push(await caller.request(path));
    const atOnce = await Promise.all(asked.map(({ caller, path }) => caller.request(path)));

    for (const [i, response] of atOnce.entries()) {
      const single = alone[i] as Response;
      expect(response.status, asked[i]?.path).toBe(single.status);
      expect(response.headers.get('etag'), asked[i]?.path).toBe(single.headers.get('etag'));
      expect(await response.text(), asked[i]?.path).toBe(await single.text());
    }
    expect(atOnce.filter((response) => response.status === 404)).toHaveLength(callers.length);
    expect(await json<BookDocument>(await asMember.request(`/books/${books[0]}`))).toMatchObject({ available: false });
  });
});
