/**
 * Issue 12's acceptance over HTTP in JSON, on PGlite and (with DATABASE_URL) PostgreSQL: a member who knows
 * only the root finds a book that is out, holds it, borrows it when it comes back for them, renews the
 * loan until the limit, and is refused a renewal past it. Every step follows a link or submits a control
 * the member was given; only the librarian's setup (a book lent to someone else, and its return) is
 * written as plain requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrow, returned } from './support/circulation.js';
import { type ControlDoc, type Doc, type LoanDocument, submit } from './support/documents.js';
import { expectError } from './support/errors.js';

const MAX_RENEWALS = 2;

async function follow(client: TestClient, doc: Doc, rel: string): Promise<Doc> {
  const href = linkHref(doc, rel);
  expect(href, `a ${rel} link`).toBeDefined();
  const response = await client.request(href as string);
  expect(response.status, `GET ${href}`).toBe(200);
  return json<Doc>(response);
}

function control(doc: Doc, name: string): ControlDoc {
  const found = doc.controls[name];
  expect(found, `a ${name} control among ${Object.keys(doc.controls).join(', ')}`).toBeDefined();
  return found as ControlDoc;
}

describe('a member holds a book that is out, borrows it when it is back for them, and renews it', () => {
  let t: TestCatalogue;
  let reader: TestClient;
  let otherLoanId: number;

  beforeAll(async () => {
    t = await openTestCatalogue({ access: { maxRenewals: MAX_RENEWALS } });
    const author = await addAuthor(t, 'Journey Author');
    const bookId = await addBook(t, 'The Awaited Voyage', 2011, author);
    const other = await addUser(t, 'Journey Other', 'member');
    const lent = await borrow(t, bookId, { borrower_id: other.id });
    expect(lent.status).toBe(201);
    otherLoanId = (await json<LoanDocument>(lent)).id;
    reader = t.as((await addUser(t, 'Journey Reader', 'member')).token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('from the root alone, in JSON', async () => {
    // The root's search control finds the book; the result's item link leads to it.
    const root = await json<Doc>(await reader.request('/'));
    const results = await json<{ data: Doc[] }>(await submit(reader, control(root, 'search'), { query: 'awaited' }));
    expect(results.data).toHaveLength(1);
    let book = await follow(reader, results.data[0] as Doc, 'self');
    expect(book).toMatchObject({ title: 'The Awaited Voyage', available: false, copies_available: 0 });

    // It is out: the member is offered a hold, not a borrow.
    expect(book.controls.borrow).toBeUndefined();
    const placed = await submit(reader, control(book, 'hold'));
    expect(placed.status).toBe(201);
    const hold = await json<Doc>(placed);
    expect(hold).toMatchObject({ status: 'waiting', position: 1 });
    expect(placed.headers.get('location')).toBe(linkHref(hold, 'self'));

    // The book now shows the member their place, links their hold, and offers neither hold nor borrow.
    book = await follow(reader, hold, 'book');
    expect(book).toMatchObject({ hold_status: 'waiting', hold_position: 1 });
    expect(linkHref(book, 'hold')).toBe(linkHref(hold, 'self'));
    expect(Object.keys(book.controls)).toEqual([]);

    // The copy comes back (the other borrower returns it at the desk): it is set aside for this member.
    await returned(t, otherLoanId);
    const ready = await follow(reader, book, 'hold');
    // Ready: no longer in the queue (no position), the copy set aside until ready_until.
    expect(ready).toMatchObject({ status: 'ready', position: null, copy_id: expect.any(Number) });
    expect(Date.parse(ready.ready_until as string)).toBeGreaterThan(Date.now());
    book = await follow(reader, ready, 'book');
    expect(book).toMatchObject({ hold_status: 'ready', available: false, copies_available: 0 });

    // Borrow it through the control the book now offers; the answer is the loan.
    const borrowed = await submit(reader, control(book, 'borrow'));
    expect(borrowed.status).toBe(201);
    let loan = await json<Doc>(borrowed);
    expect(loan).toMatchObject({ status: 'active', renewals: 0, book_id: book.id });
    expect(await follow(reader, ready, 'self')).toMatchObject({ status: 'fulfilled', loan_id: loan.id });

    // Renew it while the control is offered: each renewal counts, and the loan stays due in the future.
    const renew = control(loan, 'renew');
    for (let renewal = 1; renewal <= MAX_RENEWALS; renewal++) {
      const renewed = await submit(reader, control(loan, 'renew'));
      expect(renewed.status, `renewal ${renewal}`).toBe(200);
      loan = await json<Doc>(renewed);
      expect(loan.renewals).toBe(renewal);
      expect(Date.parse(loan.due_at as string)).toBeGreaterThan(Date.now());
    }
    // At the limit it is no longer offered, and sending it anyway is refused, saying why.
    loan = await follow(reader, loan, 'self');
    expect(loan.controls.renew).toBeUndefined();
    expect(loan.controls.return).toBeDefined();
    await expectError(await submit(reader, renew), 409, { message: /renewed as often as a loan may be/ });
    expect(await follow(reader, loan, 'self')).toMatchObject({ renewals: MAX_RENEWALS, status: 'active' });
  });
});
