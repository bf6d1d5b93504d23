/**
 * One statement of thousands of rows, on PGlite and PostgreSQL: its triggers write the change feed's events
 * one per row, in id order, each once (as for a statement of one row), keep the collection's counters and
 * the search dictionary right, and none of them gathers the statement's rows into one value, which grows
 * with the statement and fails past 256 MB (a jsonb array of ten million copies' events did).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { generateCatalogue } from '../src/db/generate.js';
import { json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { ChangesPageDocument } from './support/documents.js';

/** Books inserted by one statement: enough that a value per statement would be one per 5,000 rows. */
const BOOKS = 5000;

let t: TestCatalogue;

beforeAll(async () => {
  t = await openTestCatalogue();
});
afterAll(() => t?.close());

/** Every event after `href`, following `next` (100 a page) until a page comes back empty. */
async function eventsAfter(href: string): Promise<{ types: string[]; hrefs: string[]; ids: number[]; resume: string }> {
  const types: string[] = [];
  const hrefs: string[] = [];
  const ids: number[] = [];
  for (let at = `${href}&per_page=100`; ; ) {
    const page = await json<ChangesPageDocument>(await t.request(at));
    for (const event of page.data) {
      types.push(event.type);
      hrefs.push(event.links[0]?.href ?? '');
      ids.push(event.id);
    }
    const next = linkHref(page, 'next') as string;
    if (page.data.length === 0) return { types, hrefs, ids, resume: next };
    at = next;
  }
}

async function resumePoint(): Promise<string> {
  const page = await json<ChangesPageDocument>(await t.request('/changes?from=now'));
  return linkHref(page, 'next') as string;
}

async function total(path: string): Promise<number> {
  return (await json<{ meta: { total_items: number } }>(await t.request(path))).meta.total_items;
}

async function bookIds(): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from books order by id`));
  return rows.map((row) => Number(row.id));
}

describe('a statement of thousands of rows', () => {
  it('records one event per book and per copy, in id order, each once', async () => {
    const from = await resumePoint();
    // One statement: the batch is the whole catalogue.
    await generateCatalogue(t.database.db, { books: BOOKS, authors: 50, batchSize: BOOKS });
    const { types, hrefs, ids } = await eventsAfter(from);
    const books = await bookIds();
    expect(books).toHaveLength(BOOKS);
    const copies = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from copies order by id`)).map(
      (row) => `/copies/${row.id}`,
    );
    // The authors' statement, then the books', whose own triggers add every book's first copy.
    expect(types.slice(0, 50)).toEqual(Array(50).fill('author.created'));
    expect(types.slice(50, 50 + BOOKS)).toEqual(Array(BOOKS).fill('book.created'));
    expect(hrefs.slice(50, 50 + BOOKS)).toEqual(books.map((id) => `/books/${id}`));
    expect(types.slice(50 + BOOKS)).toEqual(Array(BOOKS).fill('copy.added'));
    expect(hrefs.slice(50 + BOOKS)).toEqual(copies);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await total('/books?per_page=1')).toBe(BOOKS);
    expect(await total('/books?per_page=1&query=garden')).toBe(BOOKS / 10);
  });

  it('records one event per copy withdrawn, per book updated and per book deleted, by one statement each', async () => {
    const from = await resumePoint();
    const { db } = t.database;
    await db.execute(sql`update copies set withdrawn_at = now()`);
    await db.execute(sql`update books set publisher = 'One Statement Press'`);
    const books = await bookIds();
    const deleted = books.filter((id) => id % 2 === 0);
    await db.execute(sql`delete from books where id % 2 = 0`);
    const { types, hrefs } = await eventsAfter(from);
    expect(types).toEqual([
      ...Array(BOOKS).fill('copy.withdrawn'),
      ...Array(BOOKS).fill('book.updated'),
      ...Array(deleted.length).fill('book.deleted'),
    ]);
    expect(hrefs.slice(BOOKS, 2 * BOOKS)).toEqual(books.map((id) => `/books/${id}`));
    expect(hrefs.slice(2 * BOOKS)).toEqual(deleted.map((id) => `/books/${id}`));
    // The deleted titles' words were taken out of the dictionary's counts: a search counts what is left.
    expect(await total('/books?per_page=1')).toBe(BOOKS - deleted.length);
    const left = rowsOf<{ n: number }>(
      await db.execute(sql`select in_titles as n from search_words where word = 'river'`),
    )[0];
    const counted = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::integer as n from books where title ilike '% river %'`),
    )[0];
    expect(Number(counted?.n)).toBe(BOOKS / 10);
    expect(Number(left?.n)).toBe(Number(counted?.n));
  });

  it('removes every word of the deleted titles from the dictionary once no title has it', async () => {
    await t.database.db.execute(sql`delete from books`);
    const words = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::integer as n from search_words where in_titles > 0`),
    )[0];
    expect(Number(words?.n)).toBe(0);
    expect(await total('/books?per_page=1')).toBe(0);
  });

  it('has no statement trigger gathering its transition table into one value', async () => {
    // Every function a statement trigger with a transition table runs, as the database holds it.
    const functions = rowsOf<{ name: string; body: string }>(
      await t.database.db.execute(sql`
        select distinct p.proname as name, pg_get_functiondef(p.oid) as body
        from pg_trigger g join pg_proc p on p.oid = g.tgfoid
        where g.tgoldtable is not null or g.tgnewtable is not null`),
    );
    expect(functions.length).toBeGreaterThan(10);
    const gathering = /\b(jsonb_agg|json_agg|array_agg|string_agg|xmlagg|ARRAY\s*\(\s*SELECT)\b/i;
    expect(functions.filter((f) => gathering.test(f.body)).map((f) => f.name)).toEqual([]);
    // EXISTS is planned for its first match: over a join of two transition tables (no statistics, no index)
    // that is a nested loop, every row against every other when nothing matches.
    const existsOverJoin = /EXISTS\s*\(\s*SELECT[^()]*\bFROM\s+(new|old)_rows\b[^()]*\bJOIN\s+(new|old)_rows\b/i;
    expect(functions.filter((f) => existsOverJoin.test(f.body)).map((f) => f.name)).toEqual([]);
  });
});
