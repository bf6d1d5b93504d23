/**
 * MARC out, on PGlite and PostgreSQL: a book as a MARCXML record and as ISO 2709, a page of any book
 * listing as a collection, the whole catalogue streamed; every MARCXML answer valid against the MARC 21
 * slim schema, ISO 2709 read back by marcjs to the same fields; and what the MARC formats do not write
 * (authors, writes) answered in another format or refused before anything changes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { AuthorDocument, BookDocument, ErrorDocument, PageDoc } from './support/documents.js';
import { type MarcFields, marcSchemaErrors, readIso2709, readMarcXml } from './support/marc.js';

const MARCXML = 'application/marcxml+xml';
const MARC = 'application/marc';

/** The streamed catalogue: enough books for many batches and chunks. */
const MANY = 2500;

describe('MARC out', () => {
  let t: TestCatalogue;
  let author: number;
  let book: number;
  let german: number;

  const get = (path: string, accept: string) => t.anonymous.request(path, { headers: { Accept: accept } });
  const marcXml = async (path: string) => {
    const response = await get(path, MARCXML);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/marcxml+xml; charset=utf-8');
    return response.text();
  };
  const iso2709 = async (path: string) => {
    const response = await get(path, MARC);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/marc');
    return Buffer.from(await response.arrayBuffer());
  };
  const field = (record: MarcFields | undefined, tag: string) => record?.fields.filter((f) => f[0] === tag) ?? [];

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Ursula K. Le Guin');
    const created = await t.send('POST', '/books', {
      title: 'The Dispossessed: <An "Ambiguous" Utopia> & more',
      publication_year: 1974,
      author_id: author,
      isbn: '0-06-012563-2',
      language: 'en',
      subjects: ['Anarchism', 'Science fiction'],
      publisher: 'Harper & Row',
    });
    book = (await json<BookDocument>(created)).id;
    const kafka = await addAuthor(t, 'Franz Kafka');
    german = (
      await json<BookDocument>(
        await t.send('POST', '/books', {
          title: 'Der Process',
          publication_year: 1925,
          author_id: kafka,
          language: 'de',
        }),
      )
    ).id;
    await addBook(t, 'Ἰλιὰς καὶ Ὀδύσσεια', -700, author);
  });
  afterAll(() => t?.close());

  it('answers a book as a MARC 21 record in MARCXML, valid against MARC 21 slim', async () => {
    const xml = await marcXml(`/books/${book}`);
    expect(await marcSchemaErrors(xml)).toBe('');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<record xmlns="http:\/\/www.loc.gov\/MARC21\/slim">/,
    );
    const [record] = readMarcXml(xml);
    expect(record?.leader).toBe('00000nam a22000003c 4500');
    const fixed = field(record, '008')[0]?.[1] ?? '';
    expect(fixed).toHaveLength(40);
    expect(fixed.slice(0, 6)).toBe(new Date().toISOString().slice(2, 10).replaceAll('-', ''));
    expect(fixed.slice(6, 15)).toBe('s1974    ');
    expect(fixed.slice(35, 38)).toBe('eng');
    expect(record?.fields.filter((f) => f[0] !== '008')).toEqual([
      ['001', String(book)],
      ['003', 'catalogue'],
      ['020', '  ', 'a', '9780060125639'],
      ['041', '  ', 'a', 'eng'],
      ['100', '0 ', 'a', 'Ursula K. Le Guin'],
      ['245', '14', 'a', 'The Dispossessed: <An "Ambiguous" Utopia> & more'],
      ['264', ' 1', 'b', 'Harper & Row', 'c', '1974'],
      ['650', ' 4', 'a', 'Anarchism'],
      ['650', ' 4', 'a', 'Science fiction'],
    ]);
  });

  it("skips a leading article in the language's own words, and writes a year before the common era as such", async () => {
    const [process] = readMarcXml(await marcXml(`/books/${german}`));
    expect(field(process, '245')).toEqual([['245', '14', 'a', 'Der Process']]);
    const all = readMarcXml(await marcXml('/books'));
    const iliad = all.find((r) => field(r, '245')[0]?.[3]?.startsWith('Ἰλιὰς'));
    expect(iliad).toBeDefined();
    expect(field(iliad, '008')[0]?.[1]?.slice(6, 15)).toBe('b        ');
    expect(field(iliad, '264')).toEqual([['264', ' 1', 'c', '700 B.C.']]);
    expect(field(iliad, '245')).toEqual([['245', '10', 'a', 'Ἰλιὰς καὶ Ὀδύσσεια']]);
  });

  it('answers a page of any listing of books as a <collection> of its records', async () => {
    const paths = [
      '/books?page=1&per_page=2',
      `/authors/${author}/books?page=1&per_page=20`,
      '/books?query=Dispossessed&page=1&per_page=5',
      '/books?fields=title&page=1&per_page=3',
    ];
    const expected = [2, 2, 1, 3];
    for (const [i, path] of paths.entries()) {
      const xml = await marcXml(path);
      expect(xml, path).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<collection xmlns="http:\/\/www.loc.gov\/MARC21\/slim">/,
      );
      expect(await marcSchemaErrors(xml), path).toBe('');
      expect(readMarcXml(xml), path).toHaveLength(expected[i] as number);
    }
    const [found] = readMarcXml(await marcXml('/books?query=Dispossessed&page=1&per_page=5'));
    expect(field(found, '001')).toEqual([['001', String(book)]]);
  });

  it('writes characters XML and ISO 2709 cannot hold as U+FFFD', async () => {
    const odd = await addBook(t, 'Plain title', 2001, author);
    // No request can store a control character in a title; another path to the database might.
    await t.database.db.execute(sql`update books set title = ${'Bell\u0007 and \u001e\u001d'} where id = ${odd}`);
    const xml = await marcXml(`/books/${odd}`);
    expect(await marcSchemaErrors(xml)).toBe('');
    expect(field(readMarcXml(xml)[0], '245')).toEqual([['245', '10', 'a', 'Bell\uFFFD and \uFFFD\uFFFD']]);
    const [binary] = readIso2709(await iso2709(`/books/${odd}`));
    expect(field(binary, '245')).toEqual([['245', '10', 'a', 'Bell\uFFFD and \uFFFD\uFFFD']]);
    await t.send('DELETE', `/books/${odd}`, undefined);
  });

  it('answers ISO 2709 for a book, a page and the stream, read back by marcjs to the same fields as MARCXML', async () => {
    for (const path of [`/books/${book}`, '/books?page=1&per_page=3', '/books']) {
      const fromXml = readMarcXml(await marcXml(path));
      const fromBinary = readIso2709(await iso2709(path));
      expect(
        fromBinary.map((r) => r.fields),
        path,
      ).toEqual(fromXml.map((r) => r.fields));
      // The leader's lengths are the record's own: its length in bytes, and where its data begins.
      for (const record of fromBinary) expect(record.leader).toMatch(/^\d{5}nam a22\d{5}3c 4500$/);
    }
  });

  it('streams the unpaged catalogue as one <collection>, well-formed and valid over many books', async () => {
    await t.database.db.execute(sql`
      insert into books (title, publication_year, author_id, subjects)
      select 'Streamed & numbered <' || n || '>', 1900 + n % 100, ${author}, array['Subject ' || n % 7]
      from generate_series(1, ${MANY}) as n`);
    const xml = await marcXml('/books');
    expect(await marcSchemaErrors(xml)).toBe('');
    const records = readMarcXml(xml);
    const count = await countBooks();
    expect(count).toBeGreaterThan(MANY);
    expect(records).toHaveLength(count);
    const ids = records.map((r) => Number(field(r, '001')[0]?.[1]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(readIso2709(await iso2709('/books'))).toHaveLength(count);
  });

  async function countBooks(): Promise<number> {
    return (await json<PageDoc<BookDocument>>(await t.request('/books?page=1&per_page=1'))).meta.total_items;
  }

  it('answers what is not a book in the next format Accept likes, else 406; a write asking for MARC alone changes nothing', async () => {
    for (const accept of [MARCXML, MARC]) {
      const refused = await get(`/authors/${author}`, accept);
      expect(refused.status).toBe(406);
      expect((await json<ErrorDocument>(refused)).error.code).toBe(406);
      expect((await get('/authors', accept)).status).toBe(406);
    }
    const fallback = await get(`/authors/${author}`, `${MARCXML}, application/json;q=0.5`);
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await json<AuthorDocument>(fallback)).name).toBe('Ursula K. Le Guin');

    const before = await countBooks();
    const write = await t.send(
      'POST',
      '/books',
      { title: 'Refused', publication_year: 2000, author_id: author },
      { Accept: MARCXML },
    );
    expect(write.status).toBe(406);
    expect(await countBooks()).toBe(before);
  });

  it('answers errors in the seed shape', async () => {
    for (const accept of [MARCXML, MARC]) {
      const missing = await get('/books/999999', accept);
      expect(missing.status).toBe(404);
      expect(await json<ErrorDocument>(missing)).toEqual({ error: { code: 404, message: expect.any(String) } });
      expect((await get('/books?per_page=0', accept)).status).toBe(400);
    }
  });
});
