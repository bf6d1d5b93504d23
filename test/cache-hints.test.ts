/**
 * Cache hints: every successful write answers `Link: <…>; rel="invalidates"` for the documents it made
 * stale (besides the one written), and a body that is the resource at another URL comes with
 * `Content-Location`. Ketting acting on both is in ketting.test.ts; here, what each write names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/domain/session.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrow, returnLoan } from './support/circulation.js';
import { type AuthorDocument, type LoanDocument, linkHeader, type UserDocument } from './support/documents.js';

let t: TestCatalogue;
let author: number;
let otherAuthor: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  author = await addAuthor(t, 'Hinted Author');
  otherAuthor = await addAuthor(t, 'Other Hinted Author');
});
afterAll(() => t.close());

/** The targets of `rel="invalidates"` in a response's Link header, in order. */
function invalidates(response: Response): string[] {
  return linkHeader(response)
    .filter((link) => link.rel === 'invalidates')
    .map((link) => link.href);
}

const books = ['/books', '/books?page=1&per_page=20'];
const authors = ['/authors', '/authors?page=1&per_page=20'];
const booksOf = (id: number) => [`/authors/${id}/books`, `/authors/${id}/books?page=1&per_page=20`];
const loans = ['/loans', '/loans?page=1&per_page=20'];
const loansOf = (id: number) => [`/users/${id}/loans`, `/users/${id}/loans?page=1&per_page=20`];

describe('books', () => {
  it('a create names the collection and the author\u2019s document and books; Content-Location is the book', async () => {
    const response = await t.send('POST', '/books', { title: 'Hint', publication_year: 2000, author_id: author });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-location')).toBe(response.headers.get('location'));
    expect(invalidates(response)).toEqual([...books, `/authors/${author}`, ...booksOf(author)]);
  });

  it('a change names the same; a move to another author names both, and the book\u2019s author', async () => {
    const book = await addBook(t, 'Moving Hint', 2001, author);
    const retitled = await t.send('PATCH', `/books/${book}`, { title: 'Moved Hint' });
    expect(retitled.status).toBe(200);
    expect(invalidates(retitled)).toEqual([...books, `/authors/${author}`, ...booksOf(author)]);
    expect(retitled.headers.get('content-location')).toBeNull();

    const etag = retitled.headers.get('etag') as string;
    const moved = await t.send('PUT', `/books/${book}`, { author_id: otherAuthor }, { 'If-Match': etag });
    expect(moved.status).toBe(200);
    expect(invalidates(moved)).toEqual([
      ...books,
      `/authors/${author}`,
      ...booksOf(author),
      `/authors/${otherAuthor}`,
      ...booksOf(otherAuthor),
      `/books/${book}/author`,
    ]);
    // Without If-Match too: the update itself answers the author the book had.
    const back = await t.send('PATCH', `/books/${book}`, { author_id: author });
    expect(invalidates(back)).toEqual(expect.arrayContaining([`/authors/${otherAuthor}`, `/authors/${author}`]));

    const deleted = await t.request(`/books/${book}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(invalidates(deleted)).toEqual([...books, `/authors/${author}`, ...booksOf(author)]);
  });

  it('a failed write names nothing', async () => {
    const refused = await t.send('POST', '/books', { title: '' });
    expect(refused.status).toBe(400);
    expect(invalidates(refused)).toEqual([]);
    const stale = await t.send(
      'PATCH',
      `/books/${await addBook(t, 'Stale', 2000, author)}`,
      { title: 'x' },
      {
        'If-Match': '"999-x"',
      },
    );
    expect(stale.status).toBe(412);
    expect(invalidates(stale)).toEqual([]);
  });

  it('a read names nothing; the author of a book is sent with the author\u2019s own URL', async () => {
    const book = await addBook(t, 'Read Hint', 2002, author);
    const read = await t.request(`/books/${book}`);
    expect(invalidates(read)).toEqual([]);
    const ofBook = await t.request(`/books/${book}/author`);
    expect(ofBook.headers.get('content-location')).toBe(`/authors/${author}`);
  });
});

describe('authors', () => {
  it('a create, rename and delete name the authors and books collections and the author\u2019s books', async () => {
    const created = await t.send('POST', '/authors', { name: 'Fleeting Hint' });
    expect(created.status).toBe(201);
    const { id } = await json<AuthorDocument>(created);
    expect(created.headers.get('content-location')).toBe(`/authors/${id}`);
    const expected = [...authors, ...books, ...booksOf(id)];
    expect(invalidates(created)).toEqual(expected);
    expect(invalidates(await t.send('PATCH', `/authors/${id}`, { name: 'Renamed Hint' }))).toEqual(expected);
    const deleted = await t.request(`/authors/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(invalidates(deleted)).toEqual(expected);
  });
});

describe('loans', () => {
  it('borrow and return name the book, the books, the author\u2019s books, the loans and the borrower\u2019s; a return the account', async () => {
    const book = await addBook(t, 'Lent Hint', 2003, author);
    const member = await addUser(t, 'Hinted Member');
    const borrowed = await borrow(t.as(member.token), book);
    expect(borrowed.status).toBe(201);
    const { id: loan } = await json<LoanDocument>(borrowed);
    expect(borrowed.headers.get('location')).toBe(`/loans/${loan}`);
    expect(borrowed.headers.get('content-location')).toBe(`/loans/${loan}`);
    const expected = [`/books/${book}`, ...books, ...booksOf(author), ...loans, ...loansOf(member.id)];
    expect(invalidates(borrowed)).toEqual(expected);

    const returned = await returnLoan(t.as(member.token), loan);
    expect(returned.status).toBe(200);
    // A return may charge a fine: the borrower's account too.
    expect(invalidates(returned)).toEqual([...expected, `/users/${member.id}/account`]);
  });

  it('a payment names the account and its payments; a waiver its charge too', async () => {
    const member = await addUser(t, 'Paying Hinter');
    const charged = await t.send('POST', `/users/${member.id}/account/charges`, { amount: 200, reason: 'a card' });
    const account = [`/users/${member.id}/account`, `/users/${member.id}/account/payments`];
    expect(invalidates(charged)).toEqual(account);
    const paid = await t.send('POST', `/users/${member.id}/account/payments`, { amount: 50 });
    expect(invalidates(paid)).toEqual(account);
    const charge = charged.headers.get('location') as string;
    const waived = await t.send('POST', `${charge}/waivers`, { reason: 'goodwill' });
    expect(invalidates(waived)).toEqual([...account, charge]);
  });
});

describe('users, tokens and sessions', () => {
  it('a user created or changed names the users collection', async () => {
    const created = await t.send('POST', '/users', { name: 'Hinted User', role: 'member' });
    const { id } = await json<UserDocument>(created);
    expect(created.headers.get('content-location')).toBe(`/users/${id}`);
    expect(invalidates(created)).toEqual(['/users', '/users?page=1&per_page=20']);
    const changed = await t.send('PATCH', `/users/${id}`, { role: 'librarian' });
    expect(invalidates(changed)).toEqual(['/users', '/users?page=1&per_page=20']);
  });

  it('a token created or revoked names the user\u2019s tokens; its secret is no Content-Location', async () => {
    const member = await addUser(t, 'Token Hinter');
    const created = await t.as(member.token).send('POST', `/users/${member.id}/tokens`, { name: 'phone' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-location')).toBeNull();
    expect(invalidates(created)).toEqual([`/users/${member.id}/tokens`]);
    const revoked = await t.as(member.token).request(created.headers.get('location') as string, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect(invalidates(revoked)).toEqual([`/users/${member.id}/tokens`]);
  });

  it('signing in and out names the user\u2019s tokens, and answers the root with its URL', async () => {
    const member = await addUser(t, 'Session Hinter');
    const signedIn = await t.anonymous.send(
      'POST',
      '/session',
      { token: member.token },
      { 'Sec-Fetch-Site': 'same-origin' },
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('content-location')).toBe('/');
    expect(invalidates(signedIn)).toEqual([`/users/${member.id}/tokens`]);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
    const signedOut = await t.anonymous.request('/session', {
      method: 'DELETE',
      headers: { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get('content-location')).toBe('/');
    expect(invalidates(signedOut)).toEqual([`/users/${member.id}/tokens`]);
  });
});
