/**
 * A listing's total with a subset counted first (a search's core, its last word matched whole): the total
 * stays exact up to the limit, and is marked an estimate only past it, whatever the subset counts.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedCount } from '../src/db/queries/counts.js';
import { books } from '../src/db/schema/index.js';
import { addAuthor, addBook, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const LIMIT = 10;
const BOOKS = 40;
let t: TestCatalogue;
let first: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  const author = await addAuthor(t, 'Counted Author');
  const ids: number[] = [];
  for (let i = 0; i < BOOKS; i++) ids.push(await addBook(t, `Counted ${i}`, 1990, author));
  first = Math.min(...ids);
});

afterAll(async () => {
  await t?.close();
});

/** The first `n` books. */
const firstBooks = (n: number) => sql`${books.id} < ${first + n}`;

async function total(where: SQL, subset: SQL) {
  const counting = boundedCount(t.database.db, books, where, LIMIT, { estimateAtOnce: true, subset });
  return { total: await counting.total, withinLimit: await counting.withinLimit };
}

describe(`a bounded count with a subset counted first (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a subset and a whole within the limit: the whole, counted exactly', async () => {
    expect(await total(firstBooks(7), firstBooks(3))).toEqual({
      total: { n: 7, estimated: false },
      withinLimit: true,
    });
  });

  it('a subset within the limit and a whole beyond it: an estimate past the limit, never the subset', async () => {
    const { total: counted, withinLimit } = await total(firstBooks(25), firstBooks(3));
    expect(withinLimit).toBe(false);
    expect(counted.estimated).toBe(true);
    expect(counted.n).toBeGreaterThan(LIMIT);
  });

  it('a subset beyond the limit: the whole is past it too', async () => {
    const { total: counted, withinLimit } = await total(firstBooks(30), firstBooks(20));
    expect(withinLimit).toBe(false);
    expect(counted).toMatchObject({ estimated: true });
    expect(counted.n).toBeGreaterThan(LIMIT);
  });
});
