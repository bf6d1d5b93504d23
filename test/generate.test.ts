/**
 * The synthetic catalogue (`catalogue generate`, used by `npm run bench`) has the documented shape the
 * benchmark's scenarios rely on: the counts asked for, `Author <n>` names, each common word in exactly 10%
 * of titles, books spread evenly over the authors, years from 1500 to 2025.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_WORDS, type GenerateProgress, generateCatalogue } from '../src/db/generate.js';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

interface Page {
  data: { id: number; name?: string; publication_year?: number }[];
  meta: { total_items: number };
}

const BOOKS = 2000;
let t: TestCatalogue;
const progress: GenerateProgress[] = [];

beforeAll(async () => {
  t = await openTestCatalogue();
  // Small batches, so that several statements and progress reports run.
  await generateCatalogue(t.database.db, { books: BOOKS, batchSize: 300, onProgress: (p) => progress.push(p) });
});
afterAll(() => t?.close());

const page = async (path: string) => json<Page>(await t.anonymous.request(path));

describe('generate', () => {
  it('adds the books asked for and one author per ten books, named Author 1 to Author N', async () => {
    expect((await page('/books?per_page=1')).meta.total_items).toBe(BOOKS);
    const authors = await page('/authors?per_page=100&sort=id');
    expect(authors.meta.total_items).toBe(BOOKS / 10);
    expect(authors.data.slice(0, 3).map((a) => a.name)).toEqual(['Author 1', 'Author 2', 'Author 3']);
  });

  it('puts each common word in exactly 10% of titles', async () => {
    for (const word of COMMON_WORDS) {
      expect((await page(`/books?per_page=1&query=${word}`)).meta.total_items, word).toBe(BOOKS / 10);
    }
  });

  it('gives every author the same number of books, and years from 1500 to 2025', async () => {
    const authors = await page('/authors?per_page=5&sort=-id');
    for (const author of authors.data) {
      expect((await page(`/authors/${author.id}/books?per_page=1`)).meta.total_items).toBe(10);
    }
    const oldest = await page('/books?per_page=1&sort=publication_year');
    const newest = await page('/books?per_page=1&sort=-publication_year');
    expect(oldest.data[0]?.publication_year).toBeGreaterThanOrEqual(1500);
    expect(newest.data[0]?.publication_year).toBeLessThanOrEqual(2025);
  });

  it('reports progress through every phase, ending complete', () => {
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['authors', 'books', 'vacuum']));
    expect(progress.filter((p) => p.phase === 'books').at(-1)).toEqual({ phase: 'books', done: BOOKS, total: BOOKS });
    expect(progress.at(-1)).toEqual({ phase: 'vacuum', done: 1, total: 1 });
  });
});
