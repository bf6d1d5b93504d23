/**
 * Bare collections are streamed from a database cursor: a large listing arrives whole, in order and in
 * chunks; a client that hangs up early releases its cursor. Also: the sample catalogue loads once.
 */

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { STATE_JSON_STREAM_BATCH } from '../src/db/queries/listing.js';
import { authors, books } from '../src/db/schema/index.js';
import { loadSampleCatalogue } from '../src/db/seed.js';
import { addAuthor, json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { AuthorDocument, BookDocument, PageDoc } from './support/documents.js';

interface Item {
  id?: number;
  title?: string;
  publication_year?: number;
  author_id?: number;
  links: { rel: string; href: string }[];
  controls?: unknown;
}

/** Enough books for the JSON stream's three read batches, the last one short. */
const BOOK_COUNT = 2 * STATE_JSON_STREAM_BATCH + 1000;
const BATCH = 500;

/** Reads a body chunk by chunk, answering the chunks' count and the decoded text. */
async function readChunks(response: Response): Promise<{ chunks: number; text: string }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let chunks = 0;
  let text = '';
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.byteLength > 0) chunks++;
    text += decoder.decode(value, { stream: true });
  }
  return { chunks, text: text + decoder.decode() };
}

/** The id a self link names. */
function selfId(item: Item): number {
  const href = linkHref(item, 'self');
  expect(href).toMatch(/^\/books\/\d+$/);
  return Number((href as string).split('/').pop());
}

describe('streaming a large collection', () => {
  let t: TestCatalogue;
  let authorIds: number[];
  /** Every inserted book, in id order. */
  let inserted: { id: number; title: string; publication_year: number; author_id: number }[];

  beforeAll(async () => {
    t = await openTestCatalogue();
    const { db } = t.database;
    const authorRows = await db
      .insert(authors)
      .values([{ name: 'Streamer Alpha' }, { name: 'Streamer Beta' }, { name: 'Streamer Gamma' }])
      .returning({ id: authors.id });
    authorIds = authorRows.map((a) => a.id);
    inserted = [];
    for (let start = 0; start < BOOK_COUNT; start += BATCH) {
      const values = Array.from({ length: BATCH }, (_, k) => {
        const n = start + k;
        return {
          // Some titles beyond Latin-1 (two to four bytes in UTF-8): a stream encodes its pieces one by one.
          title: `Streamed Volume ${String(n).padStart(5, '0')}${n % 7 === 0 ? ' \u2014 \u015ctona \u20ac \u{1d11e}' : ''}`,
          publicationYear: 1800 + (n % 200),
          authorId: authorIds[n % authorIds.length] as number,
        };
      });
      const rows = await db
        .insert(books)
        .values(values)
        .returning({ id: books.id, title: books.title, year: books.publicationYear, authorId: books.authorId });
      for (const row of rows) {
        inserted.push({ id: row.id, title: row.title, publication_year: row.year, author_id: row.authorId });
      }
    }
    inserted.sort((a, b) => a.id - b.id);
  });
  afterAll(() => t.close());

  it('GET /books sends every book, in id order, without Content-Length and in more than one chunk', async () => {
    const response = await t.request('/books');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { chunks, text } = await readChunks(response);
    expect(chunks).toBeGreaterThan(1);
    const items = JSON.parse(text) as Item[];
    expect(items).toHaveLength(BOOK_COUNT);
    expect(items.map((i) => i.id)).toEqual(inserted.map((b) => b.id));
    for (const [k, item] of items.entries()) {
      const book = inserted[k];
      expect(item).toMatchObject({ ...book });
      expect(selfId(item)).toBe(book?.id);
      expect(item.controls).toBeUndefined();
    }
  });

  it('GET /books?sort=-id&fields=title streams in descending id order with only title and links', async () => {
    const response = await t.request('/books?sort=-id&fields=title');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    const items = await json<Item[]>(response);
    expect(items).toHaveLength(BOOK_COUNT);
    const descending = [...inserted].reverse();
    expect(items.map(selfId)).toEqual(descending.map((b) => b.id));
    expect(items.map((i) => i.title)).toEqual(descending.map((b) => b.title));
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['links', 'title']);
  });

  it('the bare array holds, byte for byte, the members the pages hold, over several read batches', async () => {
    const members: string[] = [];
    let next: string | undefined = '/books?per_page=100';
    while (next) {
      const page: { data: unknown[]; links: { rel: string; href: string }[] } = await json<PageDoc>(
        await t.request(next),
      );
      members.push(...page.data.map((item) => JSON.stringify(item)));
      next = page.links.find((l) => l.rel === 'next')?.href;
    }
    expect(members).toHaveLength(BOOK_COUNT);
    const response = await t.request('/books');
    expect(await response.text()).toBe(`[${members.join(',')}]`);
  });

  it('/authors/{id}/books streams exactly that author\u2019s books', async () => {
    const author = authorIds[1] as number;
    const response = await t.request(`/authors/${author}/books`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('link')).toContain(`</authors/${author}>; rel="up"`);
    const items = await json<Item[]>(response);
    const expected = inserted.filter((b) => b.author_id === author);
    expect(expected).toHaveLength(BOOK_COUNT / 3);
    expect(items.map((i) => i.id)).toEqual(expected.map((b) => b.id));
    expect(items.every((i) => i.author_id === author)).toBe(true);
  });

  it('a client that hangs up after the first chunk releases the cursor: 20 times, then everything still works', async () => {
    for (let round = 0; round < 20; round++) {
      const path = round % 2 === 0 ? '/books' : `/authors/${authorIds[round % 3]}/books?sort=-title`;
      const response = await t.request(path);
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(new TextDecoder().decode(first.value).startsWith('[{')).toBe(true);
      await reader.cancel();
    }
    // No cursor is left open (PGlite's WITH HOLD cursors would outlive the request; on a server, a held
    // cursor would keep its pooled connection, and the requests below would wait for one forever).
    const open = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from pg_cursors where name <> ''`),
    );
    expect(open[0]?.n).toBe(0);

    // Single documents, pages and writes still answer.
    const one = inserted[42];
    expect(await json<BookDocument>(await t.request(`/books/${one?.id}`))).toMatchObject({
      id: one?.id,
      title: one?.title,
    });
    const page = await json<PageDoc<BookDocument>>(await t.request('/books?per_page=5&page=2'));
    expect(page.meta).toEqual({ page: 2, per_page: 5, total_pages: BOOK_COUNT / 5, total_items: BOOK_COUNT });
    const renamed = await t.send('PATCH', `/authors/${authorIds[2]}`, { name: 'Streamer Gamma Renamed' });
    expect(renamed.status).toBe(200);

    // And another full stream arrives whole.
    const again = await t.request('/books');
    expect(again.status).toBe(200);
    const items = await json<Item[]>(again);
    expect(items.map((i) => i.id)).toEqual(inserted.map((b) => b.id));
  });

  it('an empty collection streams []', async () => {
    const lonely = await addAuthor(t, 'Streamer Without Books');
    const response = await t.request(`/authors/${lonely}/books`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('[]');

    const none = await t.request('/books?filter=publication_year:1066');
    expect(none.status).toBe(200);
    expect(none.headers.get('content-length')).toBeNull();
    expect(await none.text()).toBe('[]');
  });
});

describe('the sample catalogue', () => {
  let s: TestCatalogue;

  beforeAll(async () => {
    s = await openTestCatalogue({ seedSample: true });
  });
  afterAll(() => s.close());

  async function totals(): Promise<{ authors: number; books: number }> {
    const a = await json<PageDoc<AuthorDocument>>(await s.request('/authors?per_page=1'));
    const b = await json<PageDoc<BookDocument>>(await s.request('/books?per_page=1'));
    return { authors: a.meta.total_items, books: b.meta.total_items };
  }

  it('loads a few dozen authors and a few hundred books, each book by an existing author', async () => {
    const counts = await totals();
    expect(counts.authors).toBeGreaterThanOrEqual(30);
    expect(counts.books).toBeGreaterThanOrEqual(300);

    const authorList = await json<{ id: number; name: string }[]>(await s.request('/authors'));
    const bookList = await json<Required<Item>[]>(await s.request('/books'));
    expect(authorList).toHaveLength(counts.authors);
    expect(bookList).toHaveLength(counts.books);
    const authorIds = new Set(authorList.map((a) => a.id));
    const thisYear = new Date().getFullYear();
    for (const book of bookList) {
      expect(authorIds.has(book.author_id), `author of ${book.title}`).toBe(true);
      expect(Number.isInteger(book.publication_year), book.title).toBe(true);
      expect(book.publication_year, book.title).toBeGreaterThanOrEqual(-3000);
      expect(book.publication_year, book.title).toBeLessThanOrEqual(thisYear);
      expect(book.title.trim().length).toBeGreaterThan(0);
    }
    // Every author has at least one work, and names are not repeated.
    expect(new Set(bookList.map((b) => b.author_id)).size).toBe(counts.authors);
    expect(new Set(authorList.map((a) => a.name)).size).toBe(counts.authors);
  });

  it('holds real works: Pride and Prejudice, 1813, by Jane Austen', async () => {
    const found = await json<Required<Item>[]>(
      await s.request('/books?author=jane%20austen&fields=title,publication_year'),
    );
    expect(found).toContainEqual(expect.objectContaining({ title: 'Pride and Prejudice', publication_year: 1813 }));
  });

  it('loading it again into the same database does nothing', async () => {
    const before = await totals();
    expect(await loadSampleCatalogue(s.database.db)).toBe(false);
    expect(await totals()).toEqual(before);
  });
});
