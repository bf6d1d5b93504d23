/**
 * SRU 2.0 and 1.2 at `/sru`, on PGlite and PostgreSQL: explain; searchRetrieve by CQL on each index and
 * relation, with and, or and not, typos forgiven only by `=` on cql.serverChoice; paging; the record schemas
 * and escapings; SRU 1.2 answered as 1.2; a diagnostic (never an HTTP error) for each thing not served; every
 * 2.0 response valid against the OASIS schema, and explain's record against ZeeRex 2.0's; and two clients
 * written elsewhere, Debian's yaz-client and npm's @natlibfi/sru-client, searching, paging and fetching records
 * from a real server.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import createSruClient from '@natlibfi/sru-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAuthor,
  addBook,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import type { ErrorDocument, RootDocument } from './support/documents.js';
import { readSru, readXml, schemaErrors, zeeRexErrors, zeeRexRecordOf } from './support/sru.js';

const SRU_2 = 'http://docs.oasis-open.org/ns/search-ws/sruResponse';
const SRU_1 = 'http://www.loc.gov/zing/srw/';
const WIZARD_ISBN = '9780261102217';

interface SruAnswer {
  status: number;
  contentType: string | null;
  xml: string;
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  doc: any;
}

async function sru(client: TestClient, query: string): Promise<SruAnswer> {
  const response = await client.request(`/sru?${query}`);
  const xml = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), xml, doc: readSru(xml) };
}

const search = (client: TestClient, cql: string, more = '') =>
  sru(client, `query=${encodeURIComponent(cql)}${more === '' ? '' : `&${more}`}`);

async function expectValid(answers: readonly SruAnswer[]): Promise<void> {
  for (const answer of answers) expect(answer.status).toBe(200);
  expect(await schemaErrors(answers.map((a) => a.xml))).toBe('');
}

/** The titles of a response's MARCXML records (245 $a), in order. */
function titlesOf(answer: SruAnswer): string[] {
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  return (answer.doc['zs:records']?.['zs:record'] ?? []).map((record: any) => {
    const marc = record['zs:recordData'].record;
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    const title = marc.datafield.find((field: any) => field['@tag'] === '245');
    return title.subfield[0]['#text'];
  });
}

function diagnosticsOf(answer: SruAnswer): { uri: string; details: string | undefined }[] {
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  return (answer.doc['zs:diagnostics']?.['diag:diagnostic'] ?? []).map((d: any) => ({
    uri: d['diag:uri'],
    details: d['diag:details'],
  }));
}

describe('SRU at /sru', () => {
  let t: TestCatalogue;
  let wizard: number;

  beforeAll(async () => {
    t = await openTestCatalogue({ publicUrl: 'https://catalogue.example.org/library' });
    const leGuin = await addAuthor(t, 'Ursula K. Le Guin');
    const tolkien = await addAuthor(t, 'J. R. R. Tolkien');
    const austen = await addAuthor(t, 'Jane Austen');
    wizard = await addBook(t, 'A Wizard of Earthsea', 1968, leGuin);
    const isbn = await t.send('PATCH', `/books/${wizard}`, { isbn: '0-261-10221-4' }, { 'If-Match': '*' });
    expect(isbn.status).toBe(200);
    await addBook(t, 'The Left Hand of Darkness', 1969, leGuin);
    await addBook(t, 'The Dispossessed', 1974, leGuin);
    await addBook(t, 'The Hobbit', 1937, tolkien);
    await addBook(t, 'The Lord of the Rings', 1954, tolkien);
    await addBook(t, 'Pride and Prejudice', 1813, austen);
    await addBook(t, 'Darkness <Visible> & "Quoted"', 1990, austen);
  });
  afterAll(() => t?.close());

  it('is linked from the root with rel sru, for anyone who may read', async () => {
    const root = await json<RootDocument>(await t.anonymous.request('/'));
    expect(linkHref(root, 'sru')).toBe('https://catalogue.example.org/library/sru');
  });

  it('explain: a ZeeRex 2.0 record of where the server is, its indexes, relations and schemas', async () => {
    const answer = await sru(t.anonymous, '');
    await expectValid([answer]);
    expect(answer.contentType).toBe('application/sru+xml; charset=utf-8');
    expect(answer.xml).toContain(`xmlns:zs="${SRU_2}"`);
    const record = answer.doc['zs:record'][0];
    expect(record['zs:recordSchema']).toBe('http://explain.z3950.org/dtd/2.0/');
    const explain = record['zs:recordData']['zr:explain'];
    expect(explain['zr:serverInfo']).toMatchObject({
      '@protocol': 'SRU',
      '@version': '2.0',
      'zr:host': 'catalogue.example.org',
      'zr:port': '443',
      'zr:database': 'library/sru',
    });
    const indexes = explain['zr:indexInfo']['zr:index'].map(
      // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
      (index: any) => `${index['zr:map']['zr:name']['@set']}.${index['zr:map']['zr:name']['#text']}`,
    );
    expect(indexes).toEqual(
      expect.arrayContaining(['cql.serverChoice', 'dc.title', 'dc.creator', 'bath.isbn', 'dc.date']),
    );
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    const schemas = explain['zr:schemaInfo']['zr:schema'].map((schema: any) => schema['@name']);
    expect(schemas).toEqual(['marcxml', 'dc']);
    // The record is ZeeRex 2.0, alone as in the response, and the same text when asked for as a string.
    const zeeRex = zeeRexRecordOf(answer.xml);
    const asString = await sru(t.anonymous, 'recordXMLEscaping=string');
    await expectValid([asString]);
    expect(asString.doc['zs:record'][0]['zs:recordData']).toBe(zeeRex);
    expect(await zeeRexErrors([zeeRex])).toBe('');
  });

  it('explain as SRU 1.2: the zing/srw namespace, with the version', async () => {
    const answer = await sru(t.anonymous, 'version=1.2&operation=explain');
    expect(answer.status).toBe(200);
    expect(answer.xml).toContain(`xmlns:zs="${SRU_1}"`);
    expect(answer.doc['zs:version']).toBe('1.2');
    expect(answer.doc['zs:record'][0]['zs:recordData']['zr:explain']['zr:serverInfo']['@version']).toBe('1.2');
    expect(await zeeRexErrors([zeeRexRecordOf(answer.xml)])).toBe('');
  });

  it('cql.serverChoice with =: the catalogue\u2019s search, a misspelt word forgiven, as MARCXML', async () => {
    const answer = await search(t.anonymous, '"wizzard earthsea"');
    await expectValid([answer]);
    expect(answer.doc['zs:numberOfRecords']).toBe('1');
    expect(titlesOf(answer)).toEqual(['A Wizard of Earthsea']);
    const record = answer.doc['zs:records']['zs:record'][0];
    expect(record['zs:recordSchema']).toBe('info:srw/schema/1/marcxml-v1.1');
    expect(record['zs:recordXMLEscaping']).toBe('xml');
    expect(record['zs:recordPosition']).toBe('1');
    expect(record['zs:recordData'].record['@xmlns']).toBe('http://www.loc.gov/MARC21/slim');
    expect(titlesOf(await search(t.anonymous, 'cql.serverChoice = tolkien'))).toEqual([
      'The Hobbit',
      'The Lord of the Rings',
    ]);
  });

  it('typos are forgiven only there: all, any, adj and == match the words as written', async () => {
    for (const cql of [
      'cql.serverChoice all "wizzard earthsea"',
      'dc.title = wizzard',
      'dc.title any "wizzard"',
      'dc.title adj "wizzard of earthsea"',
      'dc.title == "A Wizzard of Earthsea"',
    ]) {
      const answer = await search(t.anonymous, cql);
      expect(answer.doc['zs:numberOfRecords'], cql).toBe('0');
    }
  });

  it('dc.title and dc.creator by all, any, adj, exact (==) and right truncation', async () => {
    const cases: [string, string[]][] = [
      ['dc.title all "darkness hand"', ['The Left Hand of Darkness']],
      ['dc.title any "hobbit dispossessed"', ['The Dispossessed', 'The Hobbit']],
      ['dc.title adj "left hand"', ['The Left Hand of Darkness']],
      ['dc.title adj "hand left"', []],
      ['dc.title == "The Hobbit"', ['The Hobbit']],
      ['dc.title == "the hobbit"', []],
      ['dc.title = dispos*', ['The Dispossessed']],
      ['title = earthsea', ['A Wizard of Earthsea']],
      ['dc.creator = tolkien', ['The Hobbit', 'The Lord of the Rings']],
      ['dc.creator == "Jane Austen"', ['Pride and Prejudice', 'Darkness <Visible> & "Quoted"']],
      ['dc.creator == "Austen"', []],
      // A title word is not an author's: Darkness is in titles only.
      ['dc.creator = darkness', []],
    ];
    for (const [cql, titles] of cases) {
      const answer = await search(t.anonymous, cql);
      expect(titlesOf(answer).toSorted(), cql).toEqual(titles.toSorted());
    }
  });

  it('bath.isbn in any form, and dc.date compared as a year', async () => {
    const cases: [string, string[]][] = [
      ['bath.isbn = 0-261-10221-4', ['A Wizard of Earthsea']],
      [`bath.isbn == ${WIZARD_ISBN}`, ['A Wizard of Earthsea']],
      ['bath.isbn = 12345', []],
      ['dc.date = 1937', ['The Hobbit']],
      ['dc.date < 1900', ['Pride and Prejudice']],
      ['dc.date >= 1969 and dc.date <= 1974', ['The Left Hand of Darkness', 'The Dispossessed']],
      ['dc.date > 1974', ['Darkness <Visible> & "Quoted"']],
      ['dc.creator = "le guin" and dc.date <> 1969', ['A Wizard of Earthsea', 'The Dispossessed']],
    ];
    for (const [cql, titles] of cases) {
      const answer = await search(t.anonymous, cql);
      expect(titlesOf(answer).toSorted(), cql).toEqual(titles.toSorted());
    }
  });

  it('and, or, not and parentheses, left to right; a book without an ISBN is kept by not bath.isbn', async () => {
    const cases: [string, string[]][] = [
      [
        'dc.title = darkness or dc.creator = tolkien',
        ['The Left Hand of Darkness', 'Darkness <Visible> & "Quoted"', 'The Hobbit', 'The Lord of the Rings'],
      ],
      ['dc.title = darkness not dc.creator = austen', ['The Left Hand of Darkness']],
      ['dc.creator = guin not bath.isbn = 0261102214', ['The Left Hand of Darkness', 'The Dispossessed']],
      ['(dc.creator = tolkien or dc.creator = austen) and dc.date < 1950', ['The Hobbit', 'Pride and Prejudice']],
      ['dc.creator = tolkien or dc.creator = austen and dc.date < 1950', ['The Hobbit', 'Pride and Prejudice']],
      ['DC.TITLE ANY hobbit OR dc.date = 1813', ['The Hobbit', 'Pride and Prejudice']],
      [
        'cql.allRecords = 1 not dc.date < 1960',
        ['A Wizard of Earthsea', 'The Left Hand of Darkness', 'The Dispossessed', 'Darkness <Visible> & "Quoted"'],
      ],
    ];
    for (const [cql, titles] of cases) {
      const answer = await search(t.anonymous, cql);
      expect(titlesOf(answer).toSorted(), cql).toEqual(titles.toSorted());
    }
  });

  it('pages by startRecord and maximumRecords, with nextRecordPosition until the last page', async () => {
    const pages = [];
    for (let start = 1; ; ) {
      const page = await search(t.anonymous, 'cql.allRecords = 1', `maximumRecords=3&startRecord=${start}`);
      pages.push(page);
      const next = page.doc['zs:nextRecordPosition'];
      if (next === undefined) break;
      start = Number(next);
    }
    await expectValid(pages);
    expect(pages.map((p) => titlesOf(p).length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.doc['zs:nextRecordPosition'])).toEqual(['4', '7', undefined]);
    const positions = pages.flatMap((p) =>
      // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
      p.doc['zs:records']['zs:record'].map((r: any) => Number(r['zs:recordPosition'])),
    );
    expect(positions).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(pages.flatMap(titlesOf)).size).toBe(7);
    const count = await search(t.anonymous, 'cql.allRecords = 1', 'maximumRecords=0');
    await expectValid([count]);
    expect(count.doc['zs:numberOfRecords']).toBe('7');
    expect(count.doc['zs:records']).toBeUndefined();
  });

  it('recordSchema dc: SRU\u2019s Dublin Core, the book\u2019s URL and ISBN among its identifiers', async () => {
    const answer = await search(t.anonymous, 'bath.isbn = 0261102214', 'recordSchema=dc');
    await expectValid([answer]);
    const record = answer.doc['zs:records']['zs:record'][0];
    expect(record['zs:recordSchema']).toBe('info:srw/schema/1/dc-v1.1');
    const dc = record['zs:recordData']['srw_dc:dc'];
    expect(dc['@xmlns:srw_dc']).toBe('info:srw/schema/1/dc-schema');
    expect(dc['dc:title']).toBe('A Wizard of Earthsea');
    expect(dc['dc:creator']).toBe('Ursula K. Le Guin');
    expect(dc['dc:date']).toBe('1968');
    expect(dc['dc:identifier']).toEqual([
      `https://catalogue.example.org/library/books/${wizard}`,
      `urn:isbn:${WIZARD_ISBN}`,
    ]);
  });

  it('recordXMLEscaping=string: the record as escaped text, which reads back as the same MARCXML or Dublin Core', async () => {
    const asXml = await search(t.anonymous, 'dc.title = quoted');
    const asString = await search(t.anonymous, 'dc.title = quoted', 'recordXMLEscaping=string');
    await expectValid([asXml, asString]);
    const record = asString.doc['zs:records']['zs:record'][0];
    expect(record['zs:recordXMLEscaping']).toBe('string');
    const text = record['zs:recordData'];
    expect(typeof text).toBe('string');
    expect(text).toContain('<record xmlns="http://www.loc.gov/MARC21/slim"');
    // The same text as the record placed as XML (the reader trims what surrounds a text).
    expect(text).toBe(asXml.xml.match(/<record [\s\S]*<\/record>/)?.[0]);
    expect(titlesOf(asXml)).toEqual(['Darkness <Visible> & "Quoted"']);
    // Dublin Core's record writes the title's markup as entity references (&lt;), which read back as written.
    const dcAsXml = await search(t.anonymous, 'dc.title = quoted', 'recordSchema=dc');
    const dcAsString = await search(t.anonymous, 'dc.title = quoted', 'recordSchema=dc&recordXMLEscaping=string');
    await expectValid([dcAsXml, dcAsString]);
    const dcRecord = dcAsXml.xml.match(/<srw_dc:dc[\s>][\s\S]*<\/srw_dc:dc>/)?.[0];
    expect(dcRecord).toContain('Darkness &lt;Visible&gt; &amp;');
    expect(dcAsString.doc['zs:records']['zs:record'][0]['zs:recordData']).toBe(dcRecord);
  });

  it('SRU 1.2 requests are answered as 1.2: namespace, version, recordPacking', async () => {
    const answer = await sru(
      t.anonymous,
      `version=1.2&operation=searchRetrieve&query=${encodeURIComponent('dc.creator = tolkien')}&recordPacking=string&maximumRecords=1`,
    );
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('text/xml; charset=utf-8');
    expect(answer.xml).toContain(`xmlns:zs="${SRU_1}"`);
    expect(answer.doc['zs:version']).toBe('1.2');
    expect(answer.doc['zs:numberOfRecords']).toBe('2');
    expect(answer.doc['zs:nextRecordPosition']).toBe('2');
    const record = answer.doc['zs:records']['zs:record'][0];
    expect(record['zs:recordPacking']).toBe('string');
    expect(record['zs:recordData']).toContain('The Hobbit');
    const bad = await sru(t.anonymous, 'version=1.2&operation=searchRetrieve&query=x&recordPacking=json');
    expect(bad.xml).toContain('xmlns:diag="http://www.loc.gov/zing/srw/diagnostic/"');
    expect(diagnosticsOf(bad)).toEqual([{ uri: 'info:srw/diagnostic/1/71', details: 'json' }]);
  });

  it('answers what it does not serve with the standard diagnostic, 200 and schema-valid, never a 500', async () => {
    const cases: [string, number, string | undefined][] = [
      ['query=dc.subject%3Dfish', 16, 'dc.subject'],
      ['query=foo.title%3Dfish', 16, 'foo.title'],
      [`query=${encodeURIComponent('dc.title within "a b"')}`, 19, 'within'],
      [`query=${encodeURIComponent('dc.date any 1968')}`, 19, 'any'],
      [`query=${encodeURIComponent('dc.title < hobbit')}`, 19, '<'],
      [`query=${encodeURIComponent('dc.title =/stem hobbit')}`, 20, 'stem'],
      [`query=${encodeURIComponent('(dc.title = hobbit')}`, 10, undefined],
      [`query=${encodeURIComponent('dc.title = "hobbit')}`, 10, undefined],
      [`query=${encodeURIComponent('dc.title =')}`, 10, undefined],
      [`query=${encodeURIComponent('hobbit and')}`, 10, undefined],
      [`query=${encodeURIComponent('wizard earthsea')}`, 10, undefined],
      [`query=${encodeURIComponent('a ) b')}`, 10, undefined],
      [`query=${encodeURIComponent('hobbit prox ring')}`, 37, 'prox'],
      [`query=${encodeURIComponent(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' or '))}`, 38, '64'],
      [`query=${'('.repeat(5000)}a${')'.repeat(5000)}`, 10, undefined],
      [`query=${encodeURIComponent('hobbit and/distance=1 ring')}`, 46, 'distance'],
      [`query=${encodeURIComponent('dc.title = ""')}`, 27, 'title'],
      [`query=${encodeURIComponent('dc.title = hob?it')}`, 28, 'hob?it'],
      [`query=${encodeURIComponent('dc.title = *bit')}`, 28, '*bit'],
      [`query=${encodeURIComponent('dc.date = soon')}`, 36, 'soon'],
      // Told back as typed: what reads as an entity reference is characters of the term.
      [`query=${encodeURIComponent('dc.date = "&lt;1990&amp;"')}`, 36, '&lt;1990&amp;'],
      [`query=${encodeURIComponent('hobbit sortby dc.title')}`, 80, 'dc.title'],
      [`query=${encodeURIComponent('>x="info:example" x.title = hobbit')}`, 15, 'info:example'],
      ['query=hobbit&recordSchema=mods', 66, 'mods'],
      ['query=hobbit&recordXMLEscaping=json', 71, 'json'],
      ['query=hobbit&startRecord=0', 6, 'startRecord'],
      ['query=hobbit&startRecord=abc', 6, 'startRecord'],
      ['query=hobbit&maximumRecords=-1', 6, 'maximumRecords'],
      ['query=hobbit&startRecord=99999999999999999999', 6, 'startRecord'],
      ['query=hobbit&startRecord=5', 61, '5'],
      ['query=hobbit&queryType=xcql', 6, 'queryType'],
      ['query=hobbit&sortKeys=title', 80, 'sortKeys'],
      ['query=hobbit&stylesheet=x.xsl', 110, 'stylesheet'],
      ['query=', 7, 'query'],
      ['operation=searchRetrieve', 7, 'query'],
      ['operation=scan&scanClause=hobbit', 4, undefined],
      ['version=3.0&query=hobbit', 5, '2.0'],
    ];
    const answers = [];
    for (const [query, code, details] of cases) {
      const answer = await sru(t.anonymous, query);
      answers.push(answer);
      const [diagnostic] = diagnosticsOf(answer);
      expect(diagnostic?.uri, query).toBe(`info:srw/diagnostic/1/${code}`);
      if (details !== undefined) expect(diagnostic?.details, query).toBe(details);
      expect(answer.doc['zs:numberOfRecords'], query).toBe('0');
    }
    await expectValid(answers);
  });

  it('queries of any characters are answered: escapes, quotes, and words the parser splits', async () => {
    const answers = [];
    for (const cql of [
      '"darkness \\"quoted\\""',
      '"<visible>"',
      'dc.title == "Darkness <Visible> & \\"Quoted\\""',
      '\u0007',
      'Ü',
    ]) {
      const answer = await search(t.anonymous, cql);
      answers.push(answer);
    }
    await expectValid(answers);
    expect(titlesOf(answers[0] as SruAnswer)).toEqual(['Darkness <Visible> & "Quoted"']);
    expect(titlesOf(answers[2] as SruAnswer)).toEqual(['Darkness <Visible> & "Quoted"']);
  });
  it('Dublin Core tells a title that holds entity references back as typed, as XML and as a string', async () => {
    const typed = 'Ampersands &amp; &lt;tags&gt; typed';
    await addBook(t, typed, 2001, await addAuthor(t, 'Entity Writer'));
    for (const more of ['recordSchema=dc', 'recordSchema=dc&recordXMLEscaping=string']) {
      const answer = await search(t.anonymous, 'dc.title = ampersands', more);
      await expectValid([answer]);
      const data = answer.doc['zs:records']['zs:record'][0]['zs:recordData'];
      const dc = typeof data === 'string' ? readXml(data)['srw_dc:dc'] : data['srw_dc:dc'];
      expect(dc['dc:title'], more).toBe(typed);
    }
  });
});

describe('SRU past the count limit', () => {
  let t: TestCatalogue;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await openTestCatalogue({ listingCountLimit: 3 });
    const author = await addAuthor(t, 'Mary Shelley');
    for (const title of ['Harbour Lights', 'Harbour Lights Again', 'The Harbour', 'Harbour', 'A Harbour Tale']) {
      ids.push(await addBook(t, title, 1900, author));
    }
    ids.push(await addBook(t, 'Frankenstein', 1818, author));
  });
  afterAll(() => t?.close());

  const precisionOf = (answer: SruAnswer) => answer.doc['zs:resultCountPrecision'];
  const idsOf = (answer: SruAnswer) =>
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    (answer.doc['zs:records']?.['zs:record'] ?? []).map((record: any) => {
      const marc = record['zs:recordData'].record;
      // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
      return Number(marc.controlfield.find((field: any) => field['@tag'] === '001')['#text']);
    });

  it('says the count is an estimate, as SRU 2.0 can, and pages in the catalogue’s order, each book once', async () => {
    const first = await search(t.anonymous, 'cql.serverChoice = harbour', 'maximumRecords=3');
    const rest = await search(t.anonymous, 'cql.serverChoice = harbour', 'maximumRecords=3&startRecord=4');
    await expectValid([first, rest]);
    expect(precisionOf(first)).toBe('info:srw/vocabulary/resultCountPrecision/1/estimate');
    expect(Number(first.doc['zs:numberOfRecords'])).toBeGreaterThan(3);
    expect([...idsOf(first), ...idsOf(rest)]).toEqual(ids.slice(0, 5));
    const beyond = await search(t.anonymous, 'cql.serverChoice = harbour', 'maximumRecords=3&startRecord=50');
    expect(diagnosticsOf(beyond).map((d) => d.uri)).toEqual(['info:srw/diagnostic/1/61']);
  });

  it('within the limit, the count is exact and the matches ranked', async () => {
    const answer = await search(t.anonymous, 'cql.serverChoice = frankenstein');
    await expectValid([answer]);
    expect(precisionOf(answer)).toBe('info:srw/vocabulary/resultCountPrecision/1/exact');
    expect(answer.doc['zs:numberOfRecords']).toBe('1');
    expect(idsOf(answer)).toEqual([ids[5]]);
  });

  it('counts the matches as the JSON search counts the same words, its last word a prefix or not', async () => {
    // `harbour` whole is past the limit by itself; `lights harb` within it, with its prefix read in full.
    for (const words of ['harbour', 'lights harbour', 'lights harb', 'frankenstein']) {
      const answer = await search(t.anonymous, `"${words}"`);
      await expectValid([answer]);
      const listing = await json<{ meta: { total_items: number; total_items_estimated?: true } }>(
        await t.request(`/books?page=1&query=${encodeURIComponent(words)}`),
      );
      expect(Number(answer.doc['zs:numberOfRecords']), words).toBe(listing.meta.total_items);
      expect(precisionOf(answer), words).toBe(
        `info:srw/vocabulary/resultCountPrecision/1/${listing.meta.total_items_estimated ? 'estimate' : 'exact'}`,
      );
    }
  });
});

describe('SRU clients written elsewhere, against a real server', () => {
  let t: TestCatalogue;
  let server: ReturnType<typeof serve>;
  let baseUrl: string;
  const BOOKS = 12;

  beforeAll(async () => {
    t = await openTestCatalogue();
    const author = await addAuthor(t, 'Paged Author');
    for (let i = 1; i <= BOOKS; i++) await addBook(t, `Volume ${i} of the series`, 1990 + i, author);
    await addBook(t, 'Another book', 2001, await addAuthor(t, 'Someone Else'));
    server = await new Promise((resolve) => {
      const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sru`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  /** Runs yaz-client with the commands on its standard input; answers what it printed. */
  function yazClient(commands: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn('yaz-client', [], { stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      child.on('error', reject);
      child.on('close', () => resolve(output));
      child.stdin.end(`${[`open ${baseUrl}`, ...commands, 'quit'].join('\n')}\n`);
    });
  }

  for (const version of ['2.0', '1.2']) {
    it(`yaz-client (SRU ${version}) searches, pages through with show, and fetches MARCXML and Dublin Core`, async () => {
      const output = await yazClient([
        `sru get ${version}`,
        'querytype cql',
        'schema marcxml',
        'find dc.creator = "paged author" and dc.title = series',
        'show 1+5',
        'show 6+5',
        'show 11+2',
        'schema dc',
        'find dc.date = 1995',
        'show 1',
      ]);
      expect(output).toContain(`Number of hits: ${BOOKS}`);
      const positions = [...output.matchAll(/pos=(\d+) schema=info:srw\/schema\/1\/marcxml-v1\.1/g)].map((m) =>
        Number(m[1]),
      );
      expect(positions).toEqual(Array.from({ length: BOOKS }, (_, i) => i + 1));
      const titles = [...output.matchAll(/<subfield code="a">(Volume \d+) of the series<\/subfield>/g)].map(
        (m) => m[1],
      );
      expect(titles).toEqual(Array.from({ length: BOOKS }, (_, i) => `Volume ${i + 1}`));
      expect(output).toContain('Number of hits: 1');
      expect(output).toMatch(/pos=1 schema=info:srw\/schema\/1\/dc-v1\.1/);
      expect(output).toContain('<dc:title>Volume 5 of the series</dc:title>');
      expect(output).not.toMatch(/Diagnostic|error/i);
    });
  }

  it('yaz-client is told the diagnostic of a query the server does not serve', async () => {
    const output = await yazClient(['sru get 2.0', 'querytype cql', 'find dc.subject = fish']);
    expect(output).toMatch(/info:srw\/diagnostic\/1\/16/);
    expect(output).toContain('dc.subject');
  });

  it('@natlibfi/sru-client reads every record once, across pages, as MARCXML', async () => {
    const client = createSruClient({ url: baseUrl, recordSchema: 'marcxml', maxRecordsPerRequest: 5 });
    const { records, total } = await new Promise<{ records: string[]; total: number }>((resolve, reject) => {
      const records: string[] = [];
      let total = -1;
      client
        .searchRetrieve('dc.creator = "paged author"')
        .on('record', (record: string) => records.push(record))
        .on('total', (count: number) => {
          total = count;
        })
        .on('end', () => resolve({ records, total }))
        .on('error', reject);
    });
    expect(total).toBe(BOOKS);
    const titles = records.map((record) => record.match(/Volume \d+ of the series/)?.[0]);
    expect(titles).toEqual(Array.from({ length: BOOKS }, (_, i) => `Volume ${i + 1} of the series`));
  });

  it('@natlibfi/sru-client: the first page only, then the rest from the position it was told', async () => {
    const client = createSruClient({ url: baseUrl, recordSchema: 'dc', maxRecordsPerRequest: 4, retrieveAll: false });
    const page = (startRecord: number) =>
      new Promise<{ records: string[]; next: number | undefined }>((resolve, reject) => {
        const records: string[] = [];
        client
          .searchRetrieve('series', { startRecord })
          .on('record', (record: string) => records.push(record))
          .on('end', (next?: number) => resolve({ records, next }))
          .on('error', reject);
      });
    const first = await page(1);
    expect(first.records).toHaveLength(4);
    expect(first.next).toBe(5);
    expect(first.records[0]).toContain('<dc:title>Volume 1 of the series</dc:title>');
    const last = await page(9);
    expect(last.records).toHaveLength(4);
    expect(last.next).toBeUndefined();
  });

  it('@natlibfi/sru-client is told the diagnostic as an error', async () => {
    const client = createSruClient({ url: baseUrl, recordSchema: 'marcxml' });
    const error = await new Promise<Error>((resolve) => {
      client
        .searchRetrieve('dc.title within hobbit')
        .on('end', () => resolve(new Error('no error')))
        .on('error', resolve);
    });
    expect(error.message).toBe('Unsupported relation');
  });
});

describe('SRU in a closed catalogue', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ access: { publicReads: false } });
  });
  afterAll(() => t?.close());

  it('clients sign in like any client: anonymous requests are 401 in the error shape, and not linked', async () => {
    const response = await t.anonymous.request('/sru?query=hobbit');
    expect(response.status).toBe(401);
    expect((await json<ErrorDocument>(response)).error.code).toBe(401);
    expect(linkHref(await json<RootDocument>(await t.anonymous.request('/')), 'sru')).toBeUndefined();
    const signedIn = await sru(t, 'query=hobbit');
    await expectValid([signedIn]);
    expect(signedIn.doc['zs:numberOfRecords']).toBe('0');
    expect(linkHref(await json<RootDocument>(await t.request('/')), 'sru')).toBe('/sru');
  });
});
