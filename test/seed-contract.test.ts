/** The endpoints and rules of the seed specification, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { AuthorDocument, BookDocument, CollectionDocument } from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
let tolkien: number;
let leGuin: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  tolkien = await addAuthor(t, 'J. R. R. Tolkien');
  leGuin = await addAuthor(t, 'Ursula K. Le Guin');
});
afterAll(() => t.close());

describe('POST /books', () => {
  it('creates a book: 201, Location, and all four fields with the assigned id', async () => {
    const response = await t.send('POST', '/books', {
      title: 'The Hobbit',
      publication_year: 1937,
      author_id: tolkien,
    });
    expect(response.status).toBe(201);
    const book = await json<BookDocument>(response);
    expect(book).toMatchObject({ title: 'The Hobbit', publication_year: 1937, author_id: tolkien });
    expect(Number.isInteger(book.id)).toBe(true);
    expect(response.headers.get('location')).toBe(`/books/${book.id}`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const read = await json<BookDocument>(await t.request(`/books/${book.id}`));
    expect(read).toEqual(book);
  });
});

describe('GET /books/{id}', () => {
  it('answers the book object', async () => {
    const id = await addBook(t, 'The Silmarillion', 1977, tolkien);
    const response = await t.request(`/books/${id}`);
    expect(response.status).toBe(200);
    expect(await json<BookDocument>(response)).toMatchObject({
      id,
      title: 'The Silmarillion',
      publication_year: 1977,
      author_id: tolkien,
    });
  });

  it('answers 404 in the error shape for a book that does not exist', async () => {
    await expectError(await t.request('/books/999999'), 404, { message: '999999', details: [] });
  });
});

describe('PUT and PATCH /books/{id}', () => {
  it('a PUT carrying only author_id keeps title and year, and answers 200 with the full book', async () => {
    const id = await addBook(t, 'The Dispossessed', 1974, tolkien);
    const response = await t.send('PUT', `/books/${id}`, { author_id: leGuin });
    expect(response.status).toBe(200);
    expect(await json<BookDocument>(response)).toMatchObject({
      id,
      title: 'The Dispossessed',
      publication_year: 1974,
      author_id: leGuin,
    });
  });

  it('PATCH changes only the fields sent', async () => {
    const id = await addBook(t, 'A Wizard of Earthsea', 1967, leGuin);
    const response = await t.send('PATCH', `/books/${id}`, { publication_year: 1968 });
    expect(response.status).toBe(200);
    expect(await json<BookDocument>(response)).toMatchObject({
      id,
      title: 'A Wizard of Earthsea',
      publication_year: 1968,
      author_id: leGuin,
    });
  });

  it('after a change of author the book moves from the old author\u2019s books to the new one\u2019s', async () => {
    const id = await addBook(t, 'The Left Hand of Darkness', 1969, tolkien);
    const before = await json<{ id: number }[]>(await t.request(`/authors/${tolkien}/books`));
    expect(before.map((b) => b.id)).toContain(id);
    expect((await t.send('PATCH', `/books/${id}`, { author_id: leGuin })).status).toBe(200);
    const oldBooks = await json<{ id: number }[]>(await t.request(`/authors/${tolkien}/books`));
    const newBooks = await json<{ id: number; author_id: number }[]>(await t.request(`/authors/${leGuin}/books`));
    expect(oldBooks.map((b) => b.id)).not.toContain(id);
    expect(newBooks.map((b) => b.id)).toContain(id);
    expect(newBooks.every((b) => b.author_id === leGuin)).toBe(true);
  });
});

describe('GET /books/{id}/author', () => {
  it('answers the author of the book', async () => {
    const id = await addBook(t, 'The Lord of the Rings', 1954, tolkien);
    const response = await t.request(`/books/${id}/author`);
    expect(response.status).toBe(200);
    expect(await json<AuthorDocument>(response)).toMatchObject({ id: tolkien, name: 'J. R. R. Tolkien' });
    expect(response.headers.get('content-location')).toBe(`/authors/${tolkien}`);
  });

  it('answers 404 when the book does not exist', async () => {
    expect((await t.request('/books/424242/author')).status).toBe(404);
  });
});

describe('authors', () => {
  it('GET /authors answers a collection of author objects', async () => {
    const authors = await json<{ id: number; name: string }[]>(await t.request('/authors'));
    expect(authors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: tolkien, name: 'J. R. R. Tolkien' }),
        expect.objectContaining({ id: leGuin, name: 'Ursula K. Le Guin' }),
      ]),
    );
  });

  it('GET /authors/{id} answers the author, 404 when missing', async () => {
    expect(await json<AuthorDocument>(await t.request(`/authors/${leGuin}`))).toMatchObject({
      id: leGuin,
      name: 'Ursula K. Le Guin',
    });
    await expectError(await t.request('/authors/777777'), 404);
  });

  it('GET /authors/{id}/books answers 200 with an array of exactly that author\u2019s books', async () => {
    const author = await addAuthor(t, 'Single-Book Author');
    const id = await addBook(t, 'Only Book', 2001, author);
    const response = await t.request(`/authors/${author}/books`);
    expect(response.status).toBe(200);
    const books = await json<CollectionDocument<BookDocument>>(response);
    expect(Array.isArray(books)).toBe(true);
    expect(books).toEqual([
      expect.objectContaining({ id, title: 'Only Book', publication_year: 2001, author_id: author }),
    ]);
  });

  it('GET /authors/{id}/books answers 404 for an author that does not exist', async () => {
    expect((await t.request('/authors/888888/books')).status).toBe(404);
  });
});
