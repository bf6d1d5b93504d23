/**
 * `page=N` at any depth, on PGlite and PostgreSQL. A deep page of the whole catalogue in id order or in
 * publication year order (either way) is found from the counters per block of ids and per year, and holds
 * exactly the items an OFFSET would, with some books deleted so the blocks are not full; its `next` link
 * goes on from it. In any other order, a jump deeper than the limit (lowered here) is refused with a 400
 * that names the deepest page a number reaches, whose `next` link leads on by cursor.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { generateCatalogue } from '../src/db/generate.js';
import { json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { ErrorDocument } from './support/documents.js';

/** Three blocks of 4,096 ids, the last one partly filled. */
const BOOKS = 9000;
const JUMP_LIMIT = 1000;

interface Page {
  data: { id: number }[];
  meta: { page: number; total_items: number };
  links: { rel: string; href: string }[];
}

let t: TestCatalogue;

beforeAll(async () => {
  t = await openTestCatalogue({ pageJumpLimit: JUMP_LIMIT });
  await generateCatalogue(t.database.db, { books: BOOKS, authors: 90, batchSize: BOOKS });
  // Gaps in every block: the counters, not the ids, say where a page begins.
  await t.database.db.execute(sql`delete from books where id % 7 = 0 or id between 4000 and 4200`);
});
afterAll(() => t?.close());

const orders = {
  '': sql`id`,
  '-id': sql`id desc`,
  publication_year: sql`publication_year, id`,
  '-publication_year': sql`publication_year desc, id`,
} as const;

/** The ids of a page as an OFFSET reads it. */
async function offsetPage(sort: keyof typeof orders, page: number, perPage: number): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await t.database.db.execute(
      sql`select id from books order by ${orders[sort]} offset ${(page - 1) * perPage} limit ${perPage}`,
    ),
  );
  return rows.map((row) => Number(row.id));
}

async function page(path: string): Promise<Page> {
  const response = await t.request(path);
  expect(response.status, path).toBe(200);
  return json<Page>(response);
}

describe('a deep page of the whole catalogue', () => {
  it.each(Object.keys(orders) as (keyof typeof orders)[])(
    'holds what an offset would, in the order "%s", and leads on by its next link',
    async (sort) => {
      const sorted = sort === '' ? '' : `&sort=${sort}`;
      const total = (await page('/books?per_page=1')).meta.total_items;
      const perPage = 37;
      const lastPage = Math.ceil(total / perPage);
      for (const n of [120, 150, 200, lastPage]) {
        const deep = await page(`/books?page=${n}&per_page=${perPage}${sorted}`);
        expect(deep.meta.page).toBe(n);
        expect(
          deep.data.map((book) => book.id),
          `page ${n}`,
        ).toEqual(await offsetPage(sort, n, perPage));
        const next = linkHref(deep, 'next');
        if (n === lastPage) {
          expect(next).toBeUndefined();
          continue;
        }
        const following = await page(next as string);
        expect(following.data.map((book) => book.id)).toEqual(await offsetPage(sort, n + 1, perPage));
      }
      const past = await page(`/books?page=${lastPage + 5}&per_page=${perPage}${sorted}`);
      expect(past.data).toEqual([]);
    },
  );
});

describe('a page deeper than a jump may skip, in an order without counters per range', () => {
  it.each([
    ['/books?sort=title', '/books?sort=title&page=51&per_page=20'],
    ['/books?filter=language:eng', '/books?filter=language%3Aeng&page=51&per_page=20'],
  ])(
    '%s is refused with a 400 naming the deepest page a number reaches, which leads on by cursor',
    async (listing, deepest) => {
      const response = await t.request(`${listing}&page=52&per_page=20`);
      expect(response.status).toBe(400);
      const body = await json<ErrorDocument>(response);
      expect(body.error.code).toBe(400);
      expect(body.error.message).toContain(deepest);
      expect(body.error.message).toContain('"next"');
      expect(body.error.details?.page).toContain(deepest);
      const reached = await page(deepest);
      expect(reached.meta.page).toBe(51);
      const next = linkHref(reached, 'next') as string;
      expect(next).toContain('cursor=');
      expect((await page(next)).meta.page).toBe(52);
    },
  );

  it('refuses a search too (every book names its author, "Author N"), in the same words', async () => {
    const response = await t.request('/books?query=author&page=52&per_page=20');
    expect(response.status).toBe(400);
    const body = await json<ErrorDocument>(response);
    expect(body.error.message).toContain('open /books?query=author&page=51&per_page=20 and follow its "next" links');
  });

  it('still answers the deepest page a number reaches, and every page of a listing that small', async () => {
    expect((await page('/books?sort=title&page=51&per_page=20')).data).toHaveLength(20);
    expect((await page('/authors?sort=name&page=10&per_page=100')).data.length).toBeLessThanOrEqual(100);
  });
});
