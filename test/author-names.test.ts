/**
 * `author=` however many authors its words name: a few (their ids are looked up first and the books read
 * by author), or more than a thousand (the listing walks its own order instead). Both give the same books.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

let t: TestCatalogue;
/** Book id by author number: "Namesake N" wrote "Book of N", for N from 1 to 1,200. */
const bookOf = new Map<number, number>();

beforeAll(async () => {
  t = await openTestCatalogue();
  await t.database.db.execute(
    sql`insert into authors (name) select 'Namesake ' || n from generate_series(1, 1200) as n order by n`,
  );
  await t.database.db.execute(sql`
    insert into books (title, publication_year, author_id)
    select 'Book of ' || substr(a.name, 10), 2000, a.id from authors a where a.name like 'Namesake %' order by a.id`);
  const books = await json<{ id: number; title: string }[]>(await t.request('/books?fields=id,title'));
  for (const book of books) bookOf.set(Number(book.title.slice('Book of '.length)), book.id);
});

afterAll(async () => {
  await t.close();
});

/** The ids of the books by the namesakes whose number passes `named`, ascending. */
function booksBy(named: (n: number) => boolean): number[] {
  return [...bookOf]
    .filter(([n]) => named(n))
    .map(([, id]) => id)
    .sort((x, y) => x - y);
}

async function listed(author: string, query = ''): Promise<number[]> {
  const response = await t.request(`/books?author=${encodeURIComponent(author)}&fields=id${query}`);
  expect(response.status).toBe(200);
  return (await json<{ id: number }[]>(response)).map((book) => book.id);
}

describe('author= naming', () => {
  it('a few authors (the 111 whose number begins with 7): their books, read by author', async () => {
    const expected = booksBy((n) => String(n).startsWith('7'));
    expect(expected).toHaveLength(111);
    expect(await listed('namesake 7')).toEqual(expected);
  });

  it('more than a thousand authors: every one of their books, in order, and pages that agree', async () => {
    expect(await listed('namesake')).toEqual(booksBy(() => true));
    const page = await json<{ data: { id: number }[]; meta: { total_items: number } }>(
      await t.request('/books?author=namesake&per_page=5&fields=id'),
    );
    expect(page.data.map((book) => book.id)).toEqual(booksBy(() => true).slice(0, 5));
    expect(page.meta.total_items).toBeGreaterThan(1000);
  });

  it('no author: an empty listing, as for words that name nobody', async () => {
    expect(await listed('nobody')).toEqual([]);
    expect(await listed('%')).toEqual([]);
  });
});

describe('a renamed author', () => {
  it('their books are found by the new name, no longer by the old, and show the new one', async () => {
    const id = bookOf.get(1200) as number;
    const { author_id } = await json<{ author_id: number }>(await t.request(`/books/${id}`));
    const renamed = await t.send(
      'PATCH',
      `/authors/${author_id}`,
      { name: 'Quillon Renamewright' },
      { 'If-Match': '*' },
    );
    expect(renamed.status).toBe(200);

    const found = async (query: string) =>
      (await json<{ id: number }[]>(await t.request(`/books?query=${query}&fields=id`))).map((book) => book.id);
    expect(await found('renamewright')).toEqual([id]);
    expect(await found('namesake%201200')).toEqual([]);
    const book = await json<{ title: string; links: { rel: string; title?: string }[] }>(
      await t.request(`/books/${id}`),
    );
    expect(book.links.find((link) => link.rel === 'author')?.title).toBe('Quillon Renamewright');
    // The title still counts: the search vector keeps both parts.
    expect(await found(encodeURIComponent(`${book.title.split(' ')[0]} renamewright`))).toEqual([id]);
  });
});
