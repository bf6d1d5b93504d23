/**
 * `author=` however many authors its words name: up to two thousand (their ids are looked up first, the
 * books read by author and counted exactly from the counters of books per author), or more (the listing
 * walks its own order instead, and counts as any search does). Both give the same books.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

let t: TestCatalogue;
/** Book id by author number: "Namesake N" wrote "Book of N", for N from 1 to 2,100. */
const bookOf = new Map<number, number>();

beforeAll(async () => {
  t = await openTestCatalogue();
  await t.database.db.execute(
    sql`insert into authors (name) select 'Namesake ' || n from generate_series(1, 2100) as n order by n`,
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

interface Page {
  data: { id: number }[];
  meta: { page: number; per_page: number; total_pages: number; total_items: number; total_items_estimated?: true };
}

async function pageOf(path: string): Promise<Page> {
  const response = await t.request(path);
  expect(response.status).toBe(200);
  return json<Page>(response);
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

  it('more than two thousand authors: every one of their books, in order, and pages that agree', async () => {
    expect(await listed('namesake')).toEqual(booksBy(() => true));
    const page = await pageOf('/books?author=namesake&per_page=5&fields=id');
    expect(page.data.map((book) => book.id)).toEqual(booksBy(() => true).slice(0, 5));
    expect(page.meta.total_items).toBeGreaterThan(1000);
  });

  it('no author: an empty listing, as for words that name nobody', async () => {
    expect(await listed('nobody')).toEqual([]);
    expect(await listed('%')).toEqual([]);
  });
});

describe('author= totals', () => {
  it('are exact past the count limit when the name is all that is asked (the 1,111 whose number begins with 1)', async () => {
    const expected = booksBy((n) => String(n).startsWith('1'));
    expect(expected).toHaveLength(1111);
    expect(await listed('namesake 1')).toEqual(expected);
    const page = await pageOf('/books?author=namesake%201&per_page=7&fields=id');
    expect(page.meta).toEqual({ page: 1, per_page: 7, total_pages: Math.ceil(1111 / 7), total_items: 1111 });
    expect(page.data.map((book) => book.id)).toEqual(expected.slice(0, 7));
  });

  it('follow every book written, moved or deleted by one of the named authors', async () => {
    const total = async () => (await pageOf('/books?author=namesake%205&per_page=1&fields=id')).meta.total_items;
    const named = booksBy((n) => String(n).startsWith('5'));
    expect(await total()).toBe(named.length);
    const { author_id } = await json<{ author_id: number }>(await t.request(`/books/${bookOf.get(51)}`));
    const written = await t.send('POST', '/books', { title: 'Second Book of 51', publication_year: 2001, author_id });
    expect(written.status).toBe(201);
    const { id } = await json<{ id: number }>(written);
    expect(await total()).toBe(named.length + 1);
    // Moved to an author the name does not cover (Namesake 61), then deleted: the total follows each time.
    const { author_id: other } = await json<{ author_id: number }>(await t.request(`/books/${bookOf.get(61)}`));
    expect((await t.send('PATCH', `/books/${id}`, { author_id: other }, { 'If-Match': '*' })).status).toBe(200);
    expect(await total()).toBe(named.length);
    expect((await t.request(`/books/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await total()).toBe(named.length);
    expect(await listed('namesake 5')).toEqual(named);
  });

  it('with another condition, count the books matching both', async () => {
    const page = await pageOf(
      '/books?author=namesake%207&query=book&filter=publication_year:2000&per_page=3&fields=id',
    );
    expect(page.meta.total_items).toBe(111);
    const none = await pageOf('/books?author=namesake%207&filter=publication_year:1999&per_page=5&fields=id');
    expect(none.meta.total_items).toBe(0);
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
