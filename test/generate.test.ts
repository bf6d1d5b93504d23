/**
 * The synthetic catalogue (`catalogue generate`, used by `npm run bench`) has the documented shape the
 * benchmark's scenarios rely on: the counts asked for, `Author <n>` names, each common word in exactly 10%
 * of titles, books spread evenly over the authors, years from 1500 to 2025; ISBNs with valid check digits
 * from 1970 on, a language, one or two subjects and a publisher for every book.
 */
import ISBN from 'isbn3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMON_WORDS,
  FIRST_ISBN_YEAR,
  type GenerateProgress,
  generateCatalogue,
  LANGUAGES,
  SUBJECTS,
} from '../src/db/generate.js';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

interface Page {
  data: {
    id: number;
    name?: string;
    publication_year?: number;
    isbn?: string | null;
    language?: string;
    subjects?: string[];
    publisher?: string;
  }[];
  meta: { total_items: number };
  facets?: { name: string; values: { value: string; count: number }[] }[];
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

  it('gives books from 1970 on a valid ISBN each, and every book a language, one or two subjects, a publisher', async () => {
    const all = await json<Page['data']>(await t.anonymous.request('/books'));
    const withIsbn = all.filter((book) => book.isbn !== null);
    expect(withIsbn.length).toBe(all.filter((book) => (book.publication_year ?? 0) >= FIRST_ISBN_YEAR).length);
    expect(withIsbn.length).toBeGreaterThan(BOOKS / 20);
    for (const book of withIsbn) expect(ISBN.parse(book.isbn as string)?.isbn13, book.isbn as string).toBe(book.isbn);
    expect(new Set(withIsbn.map((book) => book.isbn)).size).toBe(withIsbn.length);
    for (const book of all) {
      expect(LANGUAGES).toContain(book.language);
      expect(book.subjects?.length).toBeGreaterThanOrEqual(1);
      expect(book.subjects?.length).toBeLessThanOrEqual(2);
      expect(new Set(book.subjects).size).toBe(book.subjects?.length);
      for (const subject of book.subjects ?? []) expect(SUBJECTS).toContain(subject);
      expect(book.publisher).toEqual(expect.any(String));
    }
    // A generated ISBN is found as a person would type it, ISBN-10 and hyphenated.
    const one = withIsbn[0]?.isbn as string;
    const found = await page(`/books?per_page=1&filter=isbn:${ISBN.parse(one)?.isbn10h}`);
    expect(found.data[0]?.isbn).toBe(one);
  });

  it('adds new ISBNs in a second run', async () => {
    await generateCatalogue(t.database.db, { books: 100 });
    expect((await page('/books?per_page=1')).meta.total_items).toBe(BOOKS + 100);
  });

  it('reports progress through every phase, ending complete', () => {
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['authors', 'books', 'vacuum']));
    expect(progress.filter((p) => p.phase === 'books').at(-1)).toEqual({ phase: 'books', done: BOOKS, total: BOOKS });
    expect(progress.at(-1)).toEqual({ phase: 'vacuum', done: 1, total: 1 });
  });
});
