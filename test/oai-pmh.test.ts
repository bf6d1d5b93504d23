/**
 * OAI-PMH 2.0 at `/oai`, on PGlite and PostgreSQL: every verb and every error the protocol defines, each
 * response valid against the OAI-PMH schema (with oai_dc's), GET and POST alike; a harvest by a client
 * written elsewhere (the `oai-pmh` package) that reads every book once across resumption tokens and sees a
 * deletion; tokens that stay exact when books are written between pages; selection by datestamp at day and
 * second granularity; deletions told until the change feed forgets them; a POST that spends no write quota;
 * a closed catalogue's harvesters signing in like any client.
 */

import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChanges } from '../src/db/queries/changes.js';
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
import { readOai, schemaErrors, textOf } from './support/oai-pmh.js';
import { defaultRateLimits } from './support/rate-limit.js';

/** Small, so that a dozen books take several pages. */
const PAGE_SIZE = 4;
const REPOSITORY = 'catalogue.example.org';
const identifier = (id: number) => `oai:${REPOSITORY}:book/${id}`;

interface OaiAnswer {
  status: number;
  contentType: string | null;
  xml: string;
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  doc: any;
}

async function oai(client: TestClient, query: string): Promise<OaiAnswer> {
  const response = await client.request(`/oai?${query}`);
  const xml = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), xml, doc: readOai(xml) };
}

async function oaiPost(client: TestClient, body: string): Promise<OaiAnswer> {
  const response = await client.request('/oai', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
  const xml = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), xml, doc: readOai(xml) };
}

async function expectValid(answers: readonly OaiAnswer[]): Promise<void> {
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('text/xml; charset=utf-8');
  }
  expect(await schemaErrors(answers.map((a) => a.xml))).toBe('');
}

/** Book ids of a list's headers, with `deleted` marked. */
function headersOf(answer: OaiAnswer): { id: number; deleted: boolean; datestamp: string }[] {
  const list = answer.doc.ListIdentifiers ?? answer.doc.ListRecords;
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  const headers: any[] = list.header ?? list.record.map((r: any) => r.header);
  return headers.map((h) => ({
    id: Number(String(h.identifier).split('/').pop()),
    deleted: h['@status'] === 'deleted',
    datestamp: String(h.datestamp),
  }));
}

/** Follows resumption tokens to the end of a list; answers every page. */
async function harvest(client: TestClient, verb: string, query: string): Promise<OaiAnswer[]> {
  const pages = [await oai(client, `verb=${verb}&${query}`)];
  for (;;) {
    const token = textOf(pages.at(-1)?.doc[verb]?.resumptionToken);
    if (token === '') return pages;
    pages.push(await oai(client, `verb=${verb}&resumptionToken=${encodeURIComponent(token)}`));
  }
}

function errorOf(answer: OaiAnswer): { code: string; request: Record<string, string> } {
  const [error] = answer.doc.error;
  const request = typeof answer.doc.request === 'object' ? answer.doc.request : {};
  const attributes = Object.fromEntries(
    Object.entries(request)
      .filter(([name]) => name.startsWith('@'))
      .map(([name, value]) => [name.slice(1), String(value)]),
  );
  return { code: error['@code'], request: attributes };
}

describe('the OAI-PMH endpoint', () => {
  let t: TestCatalogue;
  let author: number;
  let book: number;

  beforeAll(async () => {
    t = await openTestCatalogue({
      publicUrl: `https://${REPOSITORY}/library`,
      oai: { pageSize: PAGE_SIZE, adminEmail: 'catalogue@example.org' },
    });
    author = await addAuthor(t, 'Ursula K. Le Guin');
    book = await addBook(t, 'The Dispossessed: <An "Ambiguous" Utopia> & more', 1974, author);
  });
  afterAll(() => t?.close());

  it('is linked from the root with rel oai-pmh, for anyone who may read', async () => {
    const root = await json<RootDocument>(await t.anonymous.request('/'));
    expect(linkHref(root, 'oai-pmh')).toBe(`https://${REPOSITORY}/library/oai`);
  });

  it('Identify tells the repository, its earliest datestamp, transient deletions and seconds', async () => {
    const answer = await oai(t.anonymous, 'verb=Identify');
    await expectValid([answer]);
    const identify = answer.doc.Identify;
    expect(identify.baseURL).toBe(`https://${REPOSITORY}/library/oai`);
    expect(identify.protocolVersion).toBe('2.0');
    expect(identify.adminEmail).toBe('catalogue@example.org');
    expect(identify.deletedRecord).toBe('transient');
    expect(identify.granularity).toBe('YYYY-MM-DDThh:mm:ssZ');
    expect(identify.earliestDatestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(textOf(answer.doc.request)).toBe(`https://${REPOSITORY}/library/oai`);
    expect(answer.doc.request['@verb']).toBe('Identify');
  });

  it('ListMetadataFormats offers oai_dc and marc21, for the repository and for one record', async () => {
    const all = await oai(t.anonymous, 'verb=ListMetadataFormats');
    const one = await oai(t.anonymous, `verb=ListMetadataFormats&identifier=${identifier(book)}`);
    await expectValid([all, one]);
    for (const answer of [all, one]) {
      expect(answer.doc.ListMetadataFormats.metadataFormat).toEqual([
        {
          metadataPrefix: 'oai_dc',
          schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
          metadataNamespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
        },
        {
          metadataPrefix: 'marc21',
          schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
          metadataNamespace: 'http://www.loc.gov/MARC21/slim',
        },
      ]);
    }
  });

  it('GetRecord and ListRecords answer marc21: the MARCXML record, valid against MARC 21 slim, with 005 the datestamp', async () => {
    const created = await t.send('POST', '/books', {
      title: 'The Lathe of Heaven',
      publication_year: 1971,
      author_id: author,
      isbn: '0-684-12529-3',
      language: 'en',
      subjects: ['Dreams', 'Science fiction'],
      publisher: 'Scribner',
    });
    const { id } = (await created.json()) as { id: number };
    const one = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(id)}&metadataPrefix=marc21`);
    const list = await harvest(t.anonymous, 'ListRecords', 'metadataPrefix=marc21');
    await expectValid([one, ...list]);
    const { record } = one.doc.GetRecord;
    // The record is in MARC 21 slim as the default namespace: unprefixed, as the export writes it.
    const marc = record.metadata.record;
    expect(marc['@xmlns']).toBe('http://www.loc.gov/MARC21/slim');
    const control = (tag: string) => marc.controlfield.find((f: { '@tag': string }) => f['@tag'] === tag);
    expect(textOf(control('001'))).toBe(String(id));
    // 005 is yyyymmddhhmmss.f: the datestamp, to the tenth of a second.
    expect(textOf(control('005'))).toMatch(new RegExp(`^${record.header.datestamp.replace(/[-T:Z]/g, '')}\\.\\d$`));
    expect(textOf(control('008')).slice(7, 11)).toBe('1971');
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    const data = marc.datafield.map((f: any) => [f['@tag'], [f.subfield].flat().map(textOf)]);
    expect(data).toEqual([
      ['020', ['9780684125299']],
      ['041', ['eng']],
      ['100', ['Ursula K. Le Guin']],
      ['245', ['The Lathe of Heaven']],
      ['264', ['Scribner', '1971']],
      ['650', ['Dreams']],
      ['650', ['Science fiction']],
    ]);
    const listed = list.flatMap((page) => page.doc.ListRecords.record);
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    expect(listed.filter((r: any) => r.metadata?.record).length).toBe(listed.length);
    // Markup in a title is escaped in the record as written into the response, and reads back as it was.
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    const escaped = listed.find((r: any) => r.header.identifier === identifier(book)).metadata.record;
    // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
    expect(textOf(escaped.datafield.find((f: any) => f['@tag'] === '245').subfield)).toBe(
      'The Dispossessed: <An "Ambiguous" Utopia> & more',
    );
  });

  it('GetRecord answers a book in Dublin Core, its text escaped', async () => {
    const answer = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(book)}&metadataPrefix=oai_dc`);
    await expectValid([answer]);
    expect(answer.xml).toContain('&lt;An "Ambiguous" Utopia&gt; &amp; more');
    const record = answer.doc.GetRecord.record;
    expect(record.header.identifier).toBe(identifier(book));
    expect(record.header['@status']).toBeUndefined();
    const dc = record.metadata['oai_dc:dc'];
    expect(dc['dc:title']).toEqual(['The Dispossessed: <An "Ambiguous" Utopia> & more']);
    expect(dc['dc:creator']).toBe('Ursula K. Le Guin');
    expect(dc['dc:date']).toBe('1974');
    expect(dc['dc:type']).toBe('Text');
    expect(dc['dc:identifier']).toEqual([`https://${REPOSITORY}/library/books/${book}`]);
  });

  it("GetRecord says a book's record fields in Dublin Core: ISBN, language, subjects, publisher", async () => {
    const created = await t.send('POST', '/books', {
      title: 'The Left Hand of Darkness',
      publication_year: 1969,
      author_id: author,
      isbn: '0-441-47812-3',
      language: 'en',
      subjects: ['Science fiction', 'Gender identity'],
      publisher: 'Ace Books',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const answer = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(id)}&metadataPrefix=oai_dc`);
    await expectValid([answer]);
    const dc = answer.doc.GetRecord.record.metadata['oai_dc:dc'];
    expect(dc['dc:identifier']).toEqual([`https://${REPOSITORY}/library/books/${id}`, 'urn:isbn:9780441478125']);
    expect(dc['dc:language']).toBe('eng');
    expect(dc['dc:subject']).toEqual(['Science fiction', 'Gender identity']);
    expect(dc['dc:publisher']).toBe('Ace Books');
  });

  it('writes characters XML cannot hold as U+FFFD, so the response stays well-formed', async () => {
    const odd = await addBook(t, 'Plain title', 2001, author);
    // No request can store a control character in a title; another path to the database might.
    await t.database.db.execute(sql`update books set title = ${'Bell\u0007 and \u0001'} where id = ${odd}`);
    const answer = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(odd)}&metadataPrefix=oai_dc`);
    await expectValid([answer]);
    expect(answer.doc.GetRecord.record.metadata['oai_dc:dc']['dc:title']).toEqual(['Bell\uFFFD and \uFFFD']);
  });

  it('tells a title that holds entity references back as typed', async () => {
    const typed = 'Ampersands &amp; &lt;tags&gt; typed';
    const id = await addBook(t, typed, 2001, author);
    const answer = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(id)}&metadataPrefix=oai_dc`);
    await expectValid([answer]);
    expect(answer.doc.GetRecord.record.metadata['oai_dc:dc']['dc:title']).toEqual([typed]);
  });

  it('ListSets: the repository has no sets', async () => {
    const sets = await oai(t.anonymous, 'verb=ListSets');
    const selected = await oai(t.anonymous, 'verb=ListRecords&metadataPrefix=oai_dc&set=fiction');
    await expectValid([sets, selected]);
    expect(errorOf(sets).code).toBe('noSetHierarchy');
    expect(errorOf(selected)).toEqual({
      code: 'noSetHierarchy',
      request: { verb: 'ListRecords', metadataPrefix: 'oai_dc', set: 'fiction' },
    });
  });

  it('answers every error the protocol defines with its code, status 200', async () => {
    const cases: [string, string][] = [
      ['', 'badVerb'],
      ['verb=Dance', 'badVerb'],
      ['verb=Identify&verb=Identify', 'badVerb'],
      ['verb=Identify&metadataPrefix=oai_dc', 'badArgument'],
      ['verb=ListRecords', 'badArgument'],
      ['verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc', 'badArgument'],
      ['verb=ListRecords&metadataPrefix=oai_dc&from=2020-01-01&until=2020-01-02T00:00:00Z', 'badArgument'],
      ['verb=ListRecords&metadataPrefix=oai_dc&from=2021-01-01&until=2020-01-01', 'badArgument'],
      ['verb=ListRecords&metadataPrefix=oai_dc&from=2020-02-30', 'badArgument'],
      ['verb=ListRecords&metadataPrefix=oai_dc&from=2020-01-01T00:00:00.5Z', 'badArgument'],
      ['verb=ListRecords&metadataPrefix=oai_dc&from=2020-01-01T00:00:00%2B01:00', 'badArgument'],
      ['verb=ListRecords&resumptionToken=abc&metadataPrefix=oai_dc', 'badArgument'],
      ['verb=GetRecord&metadataPrefix=oai_dc', 'badArgument'],
      ['verb=GetRecord&identifier=not%20a%20uri&metadataPrefix=oai_dc', 'badArgument'],
      ['verb=ListIdentifiers&metadataPrefix=', 'badArgument'],
      ['verb=ListRecords&resumptionToken=abc', 'badResumptionToken'],
      ['verb=ListRecords&resumptionToken=eyJ2ZXJiIjoiTGlzdFJlY29yZHMifQ', 'badResumptionToken'],
      ['verb=ListSets&resumptionToken=abc', 'badResumptionToken'],
      ['verb=ListRecords&metadataPrefix=marcxml', 'cannotDisseminateFormat'],
      [`verb=GetRecord&identifier=${identifier(book)}&metadataPrefix=mods`, 'cannotDisseminateFormat'],
      [`verb=GetRecord&identifier=${identifier(2_000_000_000)}&metadataPrefix=oai_dc`, 'idDoesNotExist'],
      [`verb=GetRecord&identifier=oai:elsewhere.org:book/${book}&metadataPrefix=oai_dc`, 'idDoesNotExist'],
      [`verb=GetRecord&identifier=oai:${REPOSITORY}:book/0${book}&metadataPrefix=oai_dc`, 'idDoesNotExist'],
      // Echoed back as typed: what reads as an entity reference is characters of the argument.
      ['verb=GetRecord&identifier=oai:elsewhere.org:a%26amp%3Bb&metadataPrefix=oai_dc', 'idDoesNotExist'],
      [`verb=ListMetadataFormats&identifier=oai:${REPOSITORY}:author/1`, 'idDoesNotExist'],
      ['verb=ListRecords&metadataPrefix=oai_dc&until=1999-12-31', 'noRecordsMatch'],
      ['verb=ListIdentifiers&metadataPrefix=oai_dc&from=2999-01-01T00:00:00Z', 'noRecordsMatch'],
    ];
    const answers = await Promise.all(cases.map(([query]) => oai(t.anonymous, query)));
    await expectValid(answers);
    for (const [i, [query, code]] of cases.entries()) {
      const error = errorOf(answers[i] as OaiAnswer);
      expect(error.code, query).toBe(code);
      // After badVerb and badArgument the request element is the base URL alone (§3.2).
      const echoed = code === 'badVerb' || code === 'badArgument' ? {} : Object.fromEntries(new URLSearchParams(query));
      expect(error.request, query).toEqual(echoed);
    }
  });

  it('takes the same requests as a form POST; any other body is refused in the error shape', async () => {
    const got = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(book)}&metadataPrefix=oai_dc`);
    const posted = await oaiPost(
      t.anonymous,
      `verb=GetRecord&identifier=${encodeURIComponent(identifier(book))}&metadataPrefix=oai_dc`,
    );
    const bad = await oaiPost(t.anonymous, 'verb=Identify&verb=ListSets');
    await expectValid([posted, bad]);
    expect(posted.doc.GetRecord).toEqual(got.doc.GetRecord);
    expect(errorOf(bad).code).toBe('badVerb');
    const asJson = await t.anonymous.send('POST', '/oai', { verb: 'Identify' });
    expect(asJson.status).toBe(415);
    expect(await json<ErrorDocument>(asJson)).toEqual({
      error: { code: 415, message: 'request body must be sent as application/x-www-form-urlencoded' },
    });
  });

  it('answers malformed requests with protocol errors, never a 500', async () => {
    const queries = [
      'verb=ListRecords&resumptionToken=%FF%FE',
      `verb=ListRecords&resumptionToken=${'A'.repeat(5000)}`,
      `verb=ListRecords&resumptionToken=${Buffer.from('{"verb":"ListRecords","prefix":"oai_dc","after":["2020-13-45T99:00:00Z",1],"cursor":0}').toString('base64url')}`,
      `verb=ListRecords&resumptionToken=${Buffer.from('{"verb":"ListRecords","prefix":"oai_dc","after":["2020-01-01T00:00:00Z",99999999999],"cursor":0}').toString('base64url')}`,
      'verb=GetRecord&identifier=oai:x:book/99999999999999999999&metadataPrefix=oai_dc',
      'verb=%00&x=%01',
      'verb=Identify&%00=1',
      'verb=ListRecords&metadataPrefix=oai_dc&from=%C0%80',
      'verb=ListRecords&metadataPrefix=oai_dc&from=0000-01-01',
      'verb=ListRecords&metadataPrefix=oai_dc&from=9999-12-31T23:59:59Z',
      `verb=GetRecord&identifier=oai:${'x'.repeat(3000)}&metadataPrefix=oai_dc`,
    ];
    const answers = await Promise.all(queries.map((query) => oai(t.anonymous, query)));
    await expectValid(answers);
    for (const answer of answers) expect(answer.doc.error).toHaveLength(1);
  });
});

/** What the `oai-pmh` package's client offers (it ships no types); records come as xml2js reads them. */
interface Harvester {
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  identify(): Promise<any>;
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  listRecords(options: { metadataPrefix: string }): AsyncIterable<any>;
  // biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design
  listIdentifiers(options: { metadataPrefix: string }): AsyncIterable<any>;
}

describe('harvesting', () => {
  let t: TestCatalogue;
  let author: number;
  let books: number[];
  let deleted: number;
  let baseUrl: string;
  let server: ReturnType<typeof serve>;

  beforeAll(async () => {
    t = await openTestCatalogue({ oai: { pageSize: PAGE_SIZE, repositoryId: REPOSITORY } });
    author = await addAuthor(t, 'Harvested Author');
    books = [];
    for (let i = 1; i <= 10; i++) books.push(await addBook(t, `Harvested ${i}`, 1990 + i, author));
    deleted = books[3] as number;
    expect((await t.request(`/books/${deleted}`, { method: 'DELETE' })).status).toBe(204);
    server = await new Promise((resolve) => {
      const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oai`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('a harvester written elsewhere (the oai-pmh package) reads every book once and sees the deletion', async () => {
    const { OaiPmh } = createRequire(import.meta.url)('oai-pmh') as { OaiPmh: new (baseUrl: string) => Harvester };
    const client = new OaiPmh(baseUrl);
    expect((await client.identify()).deletedRecord).toBe('transient');
    const records = [];
    for await (const record of client.listRecords({ metadataPrefix: 'oai_dc' })) records.push(record);
    const identifiers = records.map((r) => r.header.identifier);
    expect(identifiers).toHaveLength(books.length);
    expect(new Set(identifiers)).toEqual(new Set(books.map(identifier)));
    const gone = records.find((r) => r.header.identifier === identifier(deleted));
    expect(gone.header.$).toEqual({ status: 'deleted' });
    expect(gone.metadata).toBeUndefined();
    const kept = records.find((r) => r.header.identifier === identifier(books[0] as number));
    expect(kept.metadata['oai_dc:dc']['dc:title']).toBe('Harvested 1');

    const headers = [];
    for await (const header of client.listIdentifiers({ metadataPrefix: 'oai_dc' })) headers.push(header);
    expect(headers.map((h) => h.identifier)).toEqual(identifiers);
  });

  it('pages by resumption token, with a cursor, the last page ending in an empty token', async () => {
    const pages = await harvest(t.anonymous, 'ListIdentifiers', 'metadataPrefix=oai_dc');
    await expectValid(pages);
    expect(pages.map((p) => headersOf(p).length)).toEqual([4, 4, 2]);
    const tokens = pages.map((p) => p.doc.ListIdentifiers.resumptionToken);
    expect(tokens.map((token) => token['@cursor'])).toEqual(['0', '4', '8']);
    expect(textOf(tokens[2])).toBe('');
    // In datestamp order, ties by id: the order the books were written, the deletion last.
    expect(pages.flatMap(headersOf).map((h) => h.id)).toEqual([...books.filter((id) => id !== deleted), deleted]);
  });

  it('a token stays exact when books are written between pages: each current record once', async () => {
    const first = await oai(t.anonymous, 'verb=ListRecords&metadataPrefix=oai_dc');
    const seen = headersOf(first).map((h) => h.id);
    // Written after the first page: new books, and a change to one the harvest has not reached yet.
    const added = [await addBook(t, 'Late 1', 2020, author), await addBook(t, 'Late 2', 2021, author)];
    const notYetSeen = books[9] as number;
    expect(seen).not.toContain(notYetSeen);
    const retitled = await t.send('PATCH', `/books/${notYetSeen}`, { title: 'Retitled' }, { 'If-Match': '*' });
    expect(retitled.status).toBe(200);
    added.push(await addBook(t, 'Late 3', 2022, author));

    const pages = [first];
    for (let page = first; ; ) {
      const token = textOf(page.doc.ListRecords.resumptionToken);
      if (token === '') break;
      page = await oai(t.anonymous, `verb=ListRecords&resumptionToken=${token}`);
      pages.push(page);
    }
    await expectValid(pages);
    const ids = pages.flatMap(headersOf).map((h) => h.id);
    expect(ids.toSorted((a, b) => a - b)).toEqual([...books, ...added].toSorted((a, b) => a - b));
    // The retitled book comes once, as it is now, after what was written before its change.
    const records = pages.flatMap((p) => p.doc.ListRecords.record);
    const retitledRecord = records.find(
      (r: { header: { identifier: string } }) => r.header.identifier === identifier(notYetSeen),
    );
    expect(retitledRecord.metadata['oai_dc:dc']['dc:title']).toEqual(['Retitled']);
    expect(ids.slice(-4)).toEqual([added[0], added[1], notYetSeen, added[2]]);
  });

  it('a harvest racing writers lists each book once: every one there before it, and every one written before its last page', async () => {
    const existing = (await harvest(t.anonymous, 'ListIdentifiers', 'metadataPrefix=oai_dc')).flatMap(headersOf);
    // Each page is read while two more books are being written, for as long as the writers have rounds left.
    const written: { id: number; at: number }[] = [];
    let rounds = 0;
    const writeRound = async () => {
      if (rounds >= 8) return;
      const round = rounds++;
      const ids = await Promise.all([
        addBook(t, `Racing ${round}a`, 2023, author),
        addBook(t, `Racing ${round}b`, 2023, author),
      ]);
      for (const id of ids) written.push({ id, at: performance.now() });
    };
    const seen: number[] = [];
    let lastPageAsked = 0;
    for (let query = 'verb=ListIdentifiers&metadataPrefix=oai_dc'; ; ) {
      lastPageAsked = performance.now();
      const [page] = await Promise.all([oai(t.anonymous, query), writeRound()]);
      expect(page.status).toBe(200);
      seen.push(...headersOf(page).map((h) => h.id));
      const token = textOf(page.doc.ListIdentifiers.resumptionToken);
      if (token === '') break;
      query = `verb=ListIdentifiers&resumptionToken=${token}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(existing.map((h) => h.id)));
    const before = written.filter((w) => w.at < lastPageAsked).map((w) => w.id);
    expect(seen).toEqual(expect.arrayContaining(before));
    const known = new Set([...existing.map((h) => h.id), ...written.map((w) => w.id)]);
    expect(seen.filter((id) => !known.has(id))).toEqual([]);
  });

  it('a token continues only the list it came from', async () => {
    const identifiers = await oai(t.anonymous, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
    const token = textOf(identifiers.doc.ListIdentifiers.resumptionToken);
    const answer = await oai(t.anonymous, `verb=ListRecords&resumptionToken=${token}`);
    await expectValid([answer]);
    expect(errorOf(answer).code).toBe('badResumptionToken');
  });
});

describe('selective harvesting and deletions', () => {
  let t: TestCatalogue;
  let author: number;
  let other: number;
  const ids: Record<'a' | 'b' | 'c' | 'd', number> = { a: 0, b: 0, c: 0, d: 0 };

  /** Stamps a record as changed at a moment of the test's choosing (no test waits for a clock). */
  const stamp = (id: number, at: string) =>
    t.database.db.execute(sql`update oai_records set datestamp = ${at}::timestamptz where book_id = ${id}`);
  const listed = async (query: string) => {
    const answer = await oai(t.anonymous, `verb=ListIdentifiers&metadataPrefix=oai_dc&${query}`);
    await expectValid([answer]);
    return answer.doc.error ? errorOf(answer).code : headersOf(answer).map((h) => h.id);
  };

  beforeAll(async () => {
    t = await openTestCatalogue({ oai: { pageSize: 100, repositoryId: REPOSITORY } });
    author = await addAuthor(t, 'Dated Author');
    other = await addAuthor(t, 'Other Author');
    ids.a = await addBook(t, 'A', 2001, author);
    ids.b = await addBook(t, 'B', 2002, author);
    ids.c = await addBook(t, 'C', 2003, other);
    ids.d = await addBook(t, 'D', 2004, other);
    await stamp(ids.a, '2020-01-01T10:00:00.250Z');
    await stamp(ids.b, '2020-01-02T00:00:00Z');
    await stamp(ids.c, '2020-01-02T23:59:59.900Z');
    await stamp(ids.d, '2020-01-03T08:00:00Z');
  });
  afterAll(() => t?.close());

  it('selects by from and until, each bound taking in its whole day or second', async () => {
    expect(await listed('from=2020-01-02&until=2020-01-02')).toEqual([ids.b, ids.c]);
    expect(await listed('from=2020-01-02T00:00:00Z&until=2020-01-02T23:59:59Z')).toEqual([ids.b, ids.c]);
    expect(await listed('until=2020-01-01T10:00:00Z')).toEqual([ids.a]);
    expect(await listed('from=2020-01-02T00:00:01Z')).toEqual([ids.c, ids.d]);
    expect(await listed('from=2020-01-03')).toEqual([ids.d]);
    expect(await listed('until=2019-12-31')).toBe('noRecordsMatch');
    // The calendar's ends: every record lies between them.
    expect(await listed('from=0001-01-01&until=9999-12-31')).toEqual([ids.a, ids.b, ids.c, ids.d]);
    expect(await listed('from=0001-01-01T00:00:00Z&until=9999-12-31T23:59:59Z')).toEqual([ids.a, ids.b, ids.c, ids.d]);
  });

  it('shows datestamps to the second, and the earliest in Identify', async () => {
    const answer = await oai(t.anonymous, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
    expect(headersOf(answer).map((h) => h.datestamp)).toEqual([
      '2020-01-01T10:00:00Z',
      '2020-01-02T00:00:00Z',
      '2020-01-02T23:59:59Z',
      '2020-01-03T08:00:00Z',
    ]);
    const identify = await oai(t.anonymous, 'verb=Identify');
    expect(identify.doc.Identify.earliestDatestamp).toBe('2020-01-01T10:00:00Z');
  });

  it('stamps a changed book, and the books of a renamed author, anew', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await listed(`from=${today}`)).toBe('noRecordsMatch');
    const renamed = await t.send('PATCH', `/authors/${other}`, { name: 'Renamed Author' }, { 'If-Match': '*' });
    expect(renamed.status).toBe(200);
    expect(await listed(`from=${today}`)).toEqual([ids.c, ids.d]);
    const record = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(ids.c)}&metadataPrefix=oai_dc`);
    expect(record.doc.GetRecord.record.metadata['oai_dc:dc']['dc:creator']).toBe('Renamed Author');
    const changed = await t.send('PATCH', `/books/${ids.a}`, { publication_year: 1999 }, { 'If-Match': '*' });
    expect(changed.status).toBe(200);
    expect(await listed(`from=${today}`)).toEqual([ids.c, ids.d, ids.a]);
  });

  it('tells of a deleted book until the change feed forgets its deletion', async () => {
    expect((await t.request(`/books/${ids.b}`, { method: 'DELETE' })).status).toBe(204);
    const today = new Date().toISOString().slice(0, 10);
    const answer = await oai(t.anonymous, `verb=ListIdentifiers&metadataPrefix=oai_dc&from=${today}`);
    expect(headersOf(answer).at(-1)).toMatchObject({ id: ids.b, deleted: true });
    const record = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(ids.b)}&metadataPrefix=oai_dc`);
    await expectValid([answer, record]);
    expect(record.doc.GetRecord.record.header['@status']).toBe('deleted');
    expect(record.doc.GetRecord.record.metadata).toBeUndefined();

    // Retention: every event so far leaves the feed, the deletion with them; the books stay harvestable.
    await pruneChanges(t.database.db, { retentionDays: 0 });
    const forgotten = await oai(t.anonymous, `verb=GetRecord&identifier=${identifier(ids.b)}&metadataPrefix=oai_dc`);
    await expectValid([forgotten]);
    expect(errorOf(forgotten).code).toBe('idDoesNotExist');
    expect((await listed('')).toString()).toBe([ids.c, ids.d, ids.a].toString());
  });
});

describe('a harvester under rate limits', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({
      rateLimits: { ...defaultRateLimits, write: { limit: 1, windowSeconds: 60 } },
    });
  });
  afterAll(() => t?.close());

  it('spends no write quota on a POST: it only reads', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await oaiPost(t, 'verb=Identify'));
    await expectValid(answers);
    expect((await t.send('POST', '/authors', { name: 'First write' })).status).toBe(201);
    expect((await t.send('POST', '/authors', { name: 'Second write' })).status).toBe(429);
    expect((await oaiPost(t, 'verb=Identify')).status).toBe(200);
  });
});

describe('in a closed catalogue', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ access: { publicReads: false } });
  });
  afterAll(() => t?.close());

  it('harvesters sign in like any client: anonymous requests are 401 in the error shape, and not linked', async () => {
    for (const response of [
      await t.anonymous.request('/oai?verb=Identify'),
      await t.anonymous.request('/oai', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'verb=Identify',
      }),
    ]) {
      expect(response.status).toBe(401);
      expect((await json<ErrorDocument>(response)).error.code).toBe(401);
    }
    expect(linkHref(await json<RootDocument>(await t.anonymous.request('/')), 'oai-pmh')).toBeUndefined();
    const signedIn = await oai(t, 'verb=Identify');
    await expectValid([signedIn]);
    expect(signedIn.doc.Identify.deletedRecord).toBe('transient');
    expect(linkHref(await json<RootDocument>(await t.request('/')), 'oai-pmh')).toBe('/oai');
  });
});
