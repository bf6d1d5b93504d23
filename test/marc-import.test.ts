/**
 * Importing records over HTTP: MARCXML, ISO 2709 and CSV; the report of good and bad records; a re-import
 * that matches instead of duplicating; authors matched by name in MARC's inverted form; safe XML (no DTD,
 * no entity expansion) and malformed XML refused; librarians only; imports in the change feed.
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { Marc } from 'marcjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { addAuthor, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type AuthorDocument,
  type BookDocument,
  type ChangesPageDocument,
  linkOf,
  type PageDoc,
} from './support/documents.js';
import { expectError } from './support/errors.js';

const MARCXML = 'application/marcxml+xml';
/** The files here are a few kilobytes; a limit of 64 KiB lets a test pass it. */
const IMPORT_LIMIT = 64 * 1024;
const fixture = (name: string) => readFile(new URL(`./fixtures/marc/${name}`, import.meta.url));

interface Entry {
  number: number;
  status: 'imported' | 'matched' | 'refused';
  book_id?: number;
  matched_by?: string;
  reason?: string;
  /** The book created or matched, titled with its title. */
  links: { rel: string; href: string; title?: string }[];
}
interface Report {
  records: number;
  imported: number;
  matched: number;
  refused: number;
  authors_created: number;
  /** The records, in file order. */
  data: Entry[];
  truncated: boolean;
}

describe('importing records', () => {
  let t: TestCatalogue;
  let tolkien: number;

  beforeAll(async () => {
    t = await openTestCatalogue({ importMaxBytes: IMPORT_LIMIT });
    tolkien = await addAuthor(t, 'J. R. R. Tolkien');
  });
  afterAll(async () => {
    await t?.close();
  });

  function upload(
    body: RequestInit['body'],
    type: string,
    path = '/imports',
    client = t as Pick<TestCatalogue, 'request'>,
  ) {
    return client.request(path, { method: 'POST', headers: { 'Content-Type': type }, body });
  }

  async function imported(body: RequestInit['body'], type: string, path?: string): Promise<Report> {
    const response = await upload(body, type, path);
    expect(response.status, await response.clone().text()).toBe(200);
    return json<Report>(response);
  }

  async function count(table: 'books' | 'authors'): Promise<number> {
    const [row] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::integer as n from ${sql.identifier(table)}`),
    );
    return row?.n ?? 0;
  }

  it('is offered on the books collection to librarians only, and refused to others in the error shape', async () => {
    const books = await json<PageDoc<BookDocument>>(await t.request('/books?page=1&per_page=1'));
    expect(books.controls.import).toMatchObject({ href: '/imports', method: 'POST', contentType: MARCXML });
    const member = await addUser(t, 'Import Member');
    for (const client of [t.anonymous, t.as(member.token)]) {
      const listing = await json<PageDoc<BookDocument>>(await client.request('/books?page=1&per_page=1'));
      expect(listing.controls.import).toBeUndefined();
    }
    const file = await fixture('mixed.xml');
    const before = await count('books');
    await expectError(await upload(file, MARCXML, '/imports', t.anonymous), 401);
    await expectError(await upload(file, MARCXML, '/imports', t.as(member.token)), 403);
    expect(await count('books')).toBe(before);
  });

  it('answers a report of each record: good ones imported, bad ones refused with their number and reason', async () => {
    const report = await imported(await fixture('mixed.xml'), MARCXML);
    expect(report).toMatchObject({ records: 7, imported: 2, matched: 1, refused: 4, authors_created: 1 });
    const [hobbit, pride, noTitle, noYear, badIsbn, badLanguage, repeated] = report.data;
    expect(hobbit).toMatchObject({ number: 1, status: 'imported' });
    expect(pride).toMatchObject({ number: 2, status: 'imported' });
    expect(noTitle).toMatchObject({ number: 3, status: 'refused' });
    expect(noTitle?.reason).toMatch(/^no title/);
    expect(noYear?.reason).toMatch(/^no year/);
    expect(badIsbn?.reason).toMatch(/^bad ISBN/);
    expect(badLanguage?.reason).toMatch(/^bad language/);
    // The same ISBN twice in one file is one book.
    expect(repeated).toMatchObject({ number: 7, status: 'matched', matched_by: 'isbn', book_id: hobbit?.book_id });
    // The report links to what it created, titled.
    expect(hobbit?.links).toEqual([
      { rel: 'book', href: `/books/${hobbit?.book_id}`, title: 'The hobbit: or, There and back again' },
    ]);
    expect(pride?.links[0]?.title).toBe('Pride and prejudice');
    expect(noTitle?.links).toEqual([]);

    const book = await json<BookDocument>(await t.request(`/books/${hobbit?.book_id}`));
    expect(book).toMatchObject({
      title: 'The hobbit: or, There and back again',
      publication_year: 1937,
      author_id: tolkien,
      isbn: '9780261102217',
      language: 'eng',
      subjects: ['Fantasy fiction', 'Dragons'],
      publisher: 'Allen & Unwin',
    });
    const austen = await json<BookDocument>(await t.request(`/books/${pride?.book_id}`));
    expect(austen).toMatchObject({ publication_year: 1813, publisher: 'T. Egerton' });
    const author = await json<AuthorDocument>(await t.request(`/authors/${austen.author_id}`));
    expect(author.name).toBe('Jane Austen');
  });

  it('creates no duplicates when the same file is imported again: every good record is matched', async () => {
    const books = await count('books');
    const authors = await count('authors');
    const report = await imported(await fixture('mixed.xml'), MARCXML);
    expect(report).toMatchObject({ records: 7, imported: 0, matched: 3, refused: 4, authors_created: 0 });
    expect(report.data[1]).toMatchObject({ status: 'matched', matched_by: 'control_number' });
    expect(await count('books')).toBe(books);
    expect(await count('authors')).toBe(authors);
  });

  it('matches inverted names however they are spaced and punctuated, and a control number by its source', async () => {
    const record = (id: string, source: string, name: string) => `<record>
      <controlfield tag="001">${id}</controlfield><controlfield tag="003">${source}</controlfield>
      <datafield tag="100" ind1="1" ind2=" "><subfield code="a">${name}</subfield></datafield>
      <datafield tag="245" ind1="1" ind2="0"><subfield code="a">Farmer Giles of Ham /</subfield></datafield>
      <datafield tag="264" ind1=" " ind2="1"><subfield code="c">c1949.</subfield></datafield></record>`;
    const file = `<marc:collection xmlns:marc="http://www.loc.gov/MARC21/slim">${record('g1', 'XYZ', 'TOLKIEN, J.R.R., 1892-1973')}</marc:collection>`;
    const first = await imported(file, MARCXML);
    expect(first).toMatchObject({ imported: 1, authors_created: 0 });
    const book = await json<BookDocument>(await t.request(`/books/${first.data[0]?.book_id}`));
    expect(book).toMatchObject({ title: 'Farmer Giles of Ham', publication_year: 1949, author_id: tolkien });
    // The same number from another source is another record; `source` names it for records without a 003.
    const other = await imported(file.replace('XYZ', 'ABC'), MARCXML);
    expect(other).toMatchObject({ imported: 1, matched: 0 });
    const withoutSource = file.replace(/<controlfield tag="003">XYZ<\/controlfield>/, '');
    expect(await imported(withoutSource, MARCXML, '/imports?source=XYZ')).toMatchObject({ imported: 0, matched: 1 });
  });

  it('refuses a document type declaration without expanding its entities (XXE, billion laughs)', async () => {
    const books = await count('books');
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE collection [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<collection><record><datafield tag="245" ind1=" " ind2=" "><subfield code="a">&xxe;</subfield></datafield></record></collection>`;
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<collection><record><datafield tag="245" ind1=" " ind2=" "><subfield code="a">&lol4;</subfield></datafield></record></collection>`;
    for (const payload of [xxe, laughs]) {
      const body = await expectError(await upload(payload, MARCXML), 400);
      expect(body.error.message).toMatch(/DOCTYPE/);
      expect(body.error.message).not.toMatch(/root:|lollol/);
    }
    // An entity never declared is no more expanded: it is malformed.
    const undeclared = '<collection><record><leader>&xxe;</leader></record></collection>';
    await expectError(await upload(undeclared, MARCXML), 400);
    expect(await count('books')).toBe(books);
  });

  it('answers malformed XML 400 in the error shape, changing nothing', async () => {
    const books = await count('books');
    for (const payload of ['<collection><record>', '<collection></record>', 'not xml at all', '']) {
      const body = await expectError(await upload(payload, MARCXML), 400);
      expect(body.error.code).toBe(400);
    }
    expect(await count('books')).toBe(books);
  });

  it('refuses a file over the import limit with 413, whether its length is declared or it just keeps coming', async () => {
    const books = await count('books');
    const record = (await fixture('mixed.xml'))
      .toString('utf8')
      .replace(/^[\s\S]*?(<record>[\s\S]*?<\/record>)[\s\S]*$/, '$1');
    const big = `<collection>${record.repeat(Math.ceil((2 * IMPORT_LIMIT) / record.length))}</collection>`;
    const declared = await t.request('/imports', {
      method: 'POST',
      headers: { 'Content-Type': MARCXML, 'Content-Length': String(Buffer.byteLength(big)) },
      body: big,
    });
    await expectError(declared, 413);
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const undeclared = await t.request('/imports', {
      method: 'POST',
      headers: { 'Content-Type': MARCXML },
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    await expectError(undeclared, 413);
    expect(await count('books')).toBe(books);
  });

  it('answers every malformed upload in the error shape with a 4xx, changing nothing', async () => {
    const books = await count('books');
    const form = (content: string, type: string, name: string) => {
      const data = new FormData();
      data.append('file', new Blob([content], { type }), name);
      return data;
    };
    const cases: [string, RequestInit][] = [
      ['bytes that are not UTF-8', { headers: { 'Content-Type': MARCXML }, body: new Uint8Array([0x3c, 0xff, 0xfe]) }],
      [
        'a CSV with an unclosed quote',
        { headers: { 'Content-Type': 'text/csv' }, body: 'title,publication_year,author\n"A,1,B' },
      ],
      [
        'a CSV row of the wrong length',
        { headers: { 'Content-Type': 'text/csv' }, body: 'title,publication_year,author\nA,1' },
      ],
      ['a multipart body without a boundary', { headers: { 'Content-Type': 'multipart/form-data' }, body: 'x' }],
      [
        'a broken multipart body',
        { headers: { 'Content-Type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\nnonsense' },
      ],
      [
        'a form without a file',
        {
          body: (() => {
            const f = new FormData();
            f.append('source', 'X');
            return f;
          })(),
        },
      ],
      ['a form with a file of no import type', { body: form('hello', 'text/plain', 'notes.txt') }],
      ['a form with malformed MARCXML', { body: form('<collection><record>', 'text/xml', 'a.xml') }],
      ['a source too long', { headers: { 'Content-Type': MARCXML }, body: '<collection/>' }],
    ];
    for (const [what, init] of cases) {
      const path = what === 'a source too long' ? `/imports?source=${'x'.repeat(101)}` : '/imports';
      const response = await t.request(path, { method: 'POST', ...init });
      expect(response.status, what).toBeGreaterThanOrEqual(400);
      expect(response.status, what).toBeLessThan(500);
      await expectError(response, response.status, { what });
    }
    expect(await count('books')).toBe(books);
  });

  it('refuses a body it cannot read with 415', async () => {
    await expectError(await upload('{}', 'application/json'), 415);
  });

  it('reads ISO 2709, refusing a record that does not parse by itself', async () => {
    const record = (id: string, title: string, isbn: string) =>
      Marc.format(
        {
          leader: '00000nam a2200000 a 4500',
          fields: [
            ['001', id],
            ['003', 'ISO'],
            ['020', '  ', 'a', isbn],
            ['100', '1 ', 'a', 'Le Guin, Ursula K.,', 'd', '1929-2018.'],
            ['245', '10', 'a', `${title} /`, 'c', 'Ursula K. Le Guin.'],
            ['264', ' 1', 'b', 'Parnassus Press,', 'c', '1968.'],
            ['650', ' 0', 'a', 'Wizards'],
          ],
        },
        'Iso2709',
      );
    const file = Buffer.concat([
      Buffer.from(record('iso-1', 'A wizard of Earthsea', '9780553383041')),
      Buffer.from('this is no record\x1d'),
      Buffer.from(record('iso-2', 'The tombs of Atuan', '0689206801')),
    ]);
    const report = await imported(file, 'application/marc');
    expect(report).toMatchObject({ records: 3, imported: 2, refused: 1, authors_created: 1 });
    expect(report.data[1]).toMatchObject({ number: 2, status: 'refused' });
    expect(report.data[1]?.reason).toMatch(/not an ISO 2709 record/);
    const book = await json<BookDocument>(await t.request(`/books/${report.data[0]?.book_id}`));
    expect(book).toMatchObject({ title: 'A wizard of Earthsea', publication_year: 1968, isbn: '9780553383041' });
    expect((await json<AuthorDocument>(await t.request(`/authors/${book.author_id}`))).name).toBe('Ursula K. Le Guin');
    expect(await imported(file, 'application/marc')).toMatchObject({ imported: 0, matched: 2, refused: 1 });
  });

  it('reads a CSV of the seed’s fields and the record fields, with a header row', async () => {
    const csv = [
      'title,publication_year,author_id,isbn,language,subjects,publisher',
      `Smith of Wootton Major,1967,${tolkien},,en,Fairies; Fantasy fiction,Allen & Unwin`,
      `"Leaf by Niggle, a story",1945,${tolkien},,,,`,
      `No year,,${tolkien},,,,`,
      'Nobody’s book,1999,999999,,,,',
    ].join('\r\n');
    const report = await imported(csv, 'text/csv');
    expect(report).toMatchObject({ records: 4, imported: 2, refused: 2 });
    expect(report.data.find((e) => e.number === 4)?.reason).toMatch(/no author 999999/);
    const smith = await json<BookDocument>(await t.request(`/books/${report.data[0]?.book_id}`));
    expect(smith).toMatchObject({ language: 'eng', subjects: ['Fairies', 'Fantasy fiction'], author_id: tolkien });
    const unknown = await expectError(await upload('title,year\nA,1', 'text/csv'), 400);
    expect(unknown.error.message).toMatch(/unknown columns: year/);
  });

  it('refuses by themselves the rows the database could not store, and imports the rest', async () => {
    const csv = [
      'title,publication_year,author_id,author,source,control_number',
      'Beyond every id,1950,9999999999,,,',
      'A NUL in a name,1950,,Ann\u0000Other,,',
      'A NUL in a control number,1950,,Ann Other,NUL,a\u0000b',
      'Well formed,1950,,Ann Other,OK,1',
    ].join('\n');
    const report = await imported(csv, 'text/csv');
    expect(report).toMatchObject({ records: 4, imported: 1, refused: 3 });
    expect(report.data.map((entry) => entry.reason ?? entry.status)).toEqual([
      expect.stringMatching(/^bad author: no author 9999999999/),
      expect.stringMatching(/^bad author: the name must be one line without control characters: the NUL character/),
      expect.stringMatching(/^bad control number .*the NUL character \(U\+0000\)/),
      'imported',
    ]);
  });

  it('shows its creations in the change feed like any other', async () => {
    const start = await json<ChangesPageDocument>(await t.request('/changes?from=now'));
    const resume = linkOf(start, 'next').href;
    const file = `<collection><record><controlfield tag="001">feed-1</controlfield><controlfield tag="003">FEED</controlfield>
      <datafield tag="100" ind1="1" ind2=" "><subfield code="a">Feedwriter, Fiona.</subfield></datafield>
      <datafield tag="245" ind1="1" ind2="0"><subfield code="a">News of the day.</subfield></datafield>
      <datafield tag="264" ind1=" " ind2="1"><subfield code="c">2020</subfield></datafield></record></collection>`;
    const report = await imported(file, MARCXML);
    const events = (await json<ChangesPageDocument>(await t.request(resume))).data as {
      type: string;
      links: { href: string }[];
    }[];
    const types = events.map((e) => e.type);
    expect(types).toContain('author.created');
    expect(types).toContain('book.created');
    const created = events.find((e) => e.type === 'book.created');
    expect(created?.links.map((l) => l.href)).toContain(`/books/${report.data[0]?.book_id}`);
  });

  it('answers a browser’s form upload with the report as a page', async () => {
    const form = new FormData();
    form.append('file', new Blob([await fixture('mixed.xml')], { type: 'text/xml' }), 'mixed.xml');
    const response = await t.request('/imports', { method: 'POST', body: form, headers: { Accept: 'text/html' } });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/<a rel="book" href="\/books\/\d+">The hobbit: or, There and back again<\/a>/);
    expect(page).toContain('no title');
    const books = await (await t.request('/books?page=1&per_page=1', { headers: { Accept: 'text/html' } })).text();
    expect(books).toContain('enctype="multipart/form-data"');
  });
});
