/**
 * A round trip through MARC: a set of books exported as MARCXML (and as ISO 2709) from one catalogue and
 * imported into an empty one come back with the same titles, years, authors, ISBNs, languages, subjects and
 * publishers; importing the export again creates nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { ImportReportDocument } from './support/documents.js';

interface Book {
  id: number;
  title: string;
  publication_year: number;
  author_id: number;
  isbn: string | null;
  language: string | null;
  subjects: string[];
  publisher: string | null;
}

/** What a book says of itself, with its author's name in place of the id (ids differ between catalogues). */
interface Record {
  title: string;
  publication_year: number;
  author: string;
  isbn: string | null;
  language: string | null;
  subjects: string[];
  publisher: string | null;
}

let source: TestCatalogue;

beforeAll(async () => {
  source = await openTestCatalogue();
  const leGuin = await addAuthor(source, 'Ursula K. Le Guin');
  const tolkien = await addAuthor(source, 'J. R. R. Tolkien');
  const lagerlof = await addAuthor(source, 'Selma Lagerlöf');
  const books = [
    {
      title: 'The Left Hand of Darkness',
      publication_year: 1969,
      author_id: leGuin,
      isbn: '978-0-441-47812-5',
      language: 'en',
      subjects: ['Science fiction', 'Gender identity'],
      publisher: 'Ace Books',
    },
    {
      title: 'The Hobbit: or There and Back Again',
      publication_year: 1937,
      author_id: tolkien,
      isbn: '0-261-10221-4',
      language: 'eng',
      subjects: ['Fantasy fiction'],
      publisher: 'George Allen & Unwin',
    },
    { title: 'Gösta Berlings saga', publication_year: 1891, author_id: lagerlof, language: 'sv' },
    { title: 'A Wizard of Earthsea', publication_year: 1968, author_id: leGuin },
  ];
  for (const book of books) {
    const created = await source.send('POST', '/books', book);
    if (created.status !== 201) throw new Error(`creating ${book.title}: ${await created.text()}`);
  }
});

afterAll(async () => {
  await source?.close();
});

/** Every book of a catalogue as a record, in title order. */
async function recordsOf(t: TestCatalogue): Promise<Record[]> {
  const page = await json<{ data: Book[] }>(await t.request('/books?per_page=100&sort=title'));
  const records: Record[] = [];
  for (const book of page.data) {
    const author = await json<{ name: string }>(await t.request(`/authors/${book.author_id}`));
    const { title, publication_year, isbn, language, subjects, publisher } = book;
    records.push({ title, publication_year, author: author.name, isbn, language, subjects, publisher });
  }
  return records;
}

/** The whole catalogue in a MARC format, as a harvester would take it. */
async function exported(type: string): Promise<Uint8Array> {
  const response = await source.request('/books', { headers: { Accept: type } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain(type);
  return new Uint8Array(await response.arrayBuffer());
}

describe.each(['application/marcxml+xml', 'application/marc'])('exported as %s, imported elsewhere', (type) => {
  let target: TestCatalogue;

  beforeAll(async () => {
    target = await openTestCatalogue();
  });

  afterAll(async () => {
    await target?.close();
  });

  it('gives the same titles, years, authors, ISBNs, languages, subjects and publishers', async () => {
    const file = await exported(type);
    const response = await target.request('/imports', {
      method: 'POST',
      body: file,
      headers: { 'Content-Type': type },
    });
    expect(response.status).toBe(200);
    expect(await json<ImportReportDocument>(response)).toMatchObject({ imported: 4, matched: 0, refused: 0 });
    expect(await recordsOf(target)).toEqual(await recordsOf(source));
  });

  it('imported again, creates nothing: every record is matched', async () => {
    const response = await target.request('/imports', {
      method: 'POST',
      body: await exported(type),
      headers: { 'Content-Type': type },
    });
    expect(await json<ImportReportDocument>(response)).toMatchObject({ imported: 0, matched: 4, refused: 0 });
    expect((await recordsOf(target)).length).toBe(4);
  });
});
