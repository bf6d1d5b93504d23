/**
 * A bulk import writes what the same records written through the ordinary path do (`POST /imports`, each
 * book through the table's triggers), though its own transaction writes the search columns itself: the
 * same search vectors and author names, the same words in the search dictionary, the same first copies,
 * the same change-feed events and OAI-PMH records, and the same answers to a search. On both databases.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { runBulkImport } from '../src/imports/bulk-import.js';
import { formatOfMediaType, type ImportFormat } from '../src/imports/formats.js';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const MARCXML = formatOfMediaType('application/marcxml+xml') as ImportFormat;

const field = (tag: string, code: string, value: string) =>
  `<datafield tag="${tag}" ind1="1" ind2=" "><subfield code="${code}">${value}</subfield></datafield>`;

/** Authors new and held (one under another spelling), accents, subjects, a repeat, a refused record. */
const FILE = `<collection xmlns="http://www.loc.gov/MARC21/slim">${[
  ['b1', '9780261102217', 'Tolkien, J. R. R.,', 'The hobbit, or, There and back again', 'Fantasy'],
  ['b2', '', 'TOLKIEN, J.R.R.', 'Farmer Giles of Ham', ''],
  ['b3', '', 'Lagerlöf, Selma', 'Gösta Berlings saga', 'Swedish fiction'],
  ['b4', '9780306406157', 'Le Guin, Ursula K.', 'The left hand of darkness', 'Science fiction'],
  ['b5', '9780306406157', 'Le Guin, Ursula K.', 'A repeat of that ISBN', ''],
  ['b6', '', 'Herbert, Frank', "Dune: the author's edition", 'Science fiction'],
  ['b7', '', 'Le Guin, Ursula K.', '', ''],
]
  .map(([id, isbn, author, title, subject]) =>
    [
      '<record><leader>00000nam a2200000 i 4500</leader>',
      `<controlfield tag="001">${id}</controlfield><controlfield tag="003">EQ</controlfield>`,
      isbn ? field('020', 'a', isbn as string) : '',
      field('100', 'a', author as string),
      title ? field('245', 'a', title) : '',
      subject ? field('650', 'a', subject) : '',
      '<datafield tag="264" ind1=" " ind2="1"><subfield code="c">1970</subfield></datafield></record>',
    ].join(''),
  )
  .join('\n')}</collection>`;

/** What a catalogue holds of the books, keyed by title rather than id. */
const QUERIES: Record<string, SQL> = {
  books: sql`select title, author_name, search::text as search, exact_key, title_words, copies_total,
    copies_available from books order by title`,
  words: sql`select word, in_titles, in_names from search_words where in_titles > 0 or in_names > 0 order by word`,
  copies: sql`select b.title, c.branch_id, c.location_branch_id from copies c join books b on b.id = c.book_id
    order by b.title, c.id`,
  events: sql`select c.type, coalesce(b.title, a.name, cp.book_title) as about, count(*)::integer as n
    from changes c
    left join books b on c.type like 'book.%' and b.id = c.resource_id
    left join authors a on c.type like 'author.%' and a.id = c.resource_id
    left join (select c2.id, b2.title as book_title from copies c2 join books b2 on b2.id = c2.book_id) cp
      on c.type like 'copy.%' and cp.id = c.resource_id
    group by 1, 2 order by 1, 2`,
  oai: sql`select b.title, r.deleted, r.datestamp >= (select min(at) from changes) as stamped
    from oai_records r join books b on b.id = r.book_id order by b.title`,
  counts: sql`select a.name, n.n from author_book_counts n join authors a on a.id = n.author_id where n.n > 0
    order by a.name`,
};

async function observed(t: TestCatalogue): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(QUERIES)) seen[name] = rowsOf(await t.database.db.execute(query));
  for (const query of ['hobbit tolkien', 'gosta berling', 'le guin darkness', 'dune author']) {
    const response = await t.anonymous.request(`/books?${new URLSearchParams({ query })}`);
    // The default JSON of a collection is its array of items.
    const books = await json<{ title: string }[]>(response);
    seen[`search ${query}`] = books.map((book) => book.title);
  }
  return seen;
}

describe('a bulk import against the same records written one by one', () => {
  let bulk: TestCatalogue;
  let ordinary: TestCatalogue;
  let directory: string;

  beforeAll(async () => {
    [bulk, ordinary] = await Promise.all([openTestCatalogue(), openTestCatalogue()]);
    // An author held before the import, whom the file names under another spelling.
    for (const t of [bulk, ordinary]) await addAuthor(t, 'Frank Herbert');
    directory = await mkdtemp(join(tmpdir(), 'bulk-equivalence-'));
  });
  afterAll(async () => {
    await Promise.all([bulk?.close(), ordinary?.close()]);
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('writes the same search columns, dictionary, copies, events and OAI-PMH records', async () => {
    const path = join(directory, 'records.xml');
    await writeFile(path, FILE);
    const { report } = await runBulkImport(bulk.database.db, path, { format: MARCXML, batchSize: 4 });
    const response = await ordinary.request('/imports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/marcxml+xml' },
      body: FILE,
    });
    expect(response.status).toBe(200);
    expect(report).toMatchObject({ records: 7, imported: 5, matched: 1, refused: 1 });
    // Each record's book is the one made of it.
    const titles = new Map(
      rowsOf<{ id: number; title: string }>(await bulk.database.db.execute(sql`select id, title from books`)).map(
        (book) => [Number(book.id), book.title],
      ),
    );
    for (const entry of report.entries) {
      if ('book_id' in entry) expect(titles.get(entry.book_id)).toBe(entry.title);
    }

    const [fromBulk, fromOrdinary] = [await observed(bulk), await observed(ordinary)];
    expect(fromBulk).toEqual(fromOrdinary);
    // Not two empty catalogues alike: each book is found, with its author's words in its vector.
    expect(fromBulk['search hobbit tolkien']).toEqual(['The hobbit, or, There and back again']);
    expect(fromBulk['search gosta berling']).toEqual(['Gösta Berlings saga']);
    expect(
      (fromBulk.books as { search: string }[]).every((b) => /'tolkien'|'lagerlof'|'guin'|'herbert'/.test(b.search)),
    ).toBe(true);
  });

  it('leaves the trigger to every other transaction, on the import’s own connection too', async () => {
    // PGlite has one connection: the import's setting must have ended with its transactions.
    const author = await addAuthor(bulk, 'Mary Shelley');
    await addBook(bulk, 'Frankenstein', 1818, author);
    const books = await json<{ title: string }[]>(await bulk.anonymous.request('/books?query=shelley+frankenstein'));
    expect(books.map((book) => book.title)).toEqual(['Frankenstein']);
  });
});
