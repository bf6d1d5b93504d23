/**
 * Sorting as a choice among labelled orders: the search control's `sort` field carries its choices inline
 * (seed JSON, the profile; HAL-FORMS in hal.test.ts), each choice is an order the listing accepts and
 * answers as its label says, OpenAPI names them, and a free-text sort is still accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type BookDocument,
  controlOf,
  type Doc,
  type ErrorDocument,
  type FieldDoc,
  type OpenApiDocument,
  type PageDoc,
  type ProfileDocument,
  present,
  type RootDocument,
} from './support/documents.js';

interface Choice {
  value: string;
  prompt: string;
}

let t: TestCatalogue;

/** The `sort` field of the search control a document offers, as the seed's JSON writes it: its choices inline. */
async function sortField(path: string): Promise<FieldDoc & { options: Choice[] }> {
  const body = await json<Doc>(await t.request(path));
  const field = controlOf(body, 'search').fields.find((f: { name: string }) => f.name === 'sort');
  return present(field, 'the sort field') as FieldDoc & { options: Choice[] };
}

const titles = async (path: string) =>
  (await json<PageDoc<BookDocument>>(await t.request(path))).data.map((book) => book.title);

beforeAll(async () => {
  t = await openTestCatalogue();
  const older = await addAuthor(t, 'Sorted Older');
  const newer = await addAuthor(t, 'Sorted Newer');
  await addBook(t, 'Middle Sorted', 1900, older);
  await addBook(t, 'Alpha Sorted', 1850, newer);
  await addBook(t, 'Zulu Sorted', 1950, older);
});
afterAll(() => t.close());

describe('the search control offers labelled orders', () => {
  it('its sort field carries the choices inline, relevance first, in the seed JSON and the profile', async () => {
    const field = await sortField('/books?page=1');
    expect(field).toMatchObject({ name: 'sort', type: 'string', required: false, title: 'Sort by' });
    expect(field.options).toEqual([
      { value: '', prompt: 'Relevance' },
      { value: 'title', prompt: 'Title A\u2013Z' },
      { value: '-title', prompt: 'Title Z\u2013A' },
      { value: '-publication_year', prompt: 'Newest first' },
      { value: 'publication_year', prompt: 'Oldest first' },
      { value: '-copies_available', prompt: 'Most available' },
    ]);
    expect((await sortField('/authors?page=1')).options.map((c: Choice) => c.prompt)).toEqual([
      'Relevance',
      'Name A\u2013Z',
      'Name Z\u2013A',
      'Newest added first',
    ]);
    const profile = await json<ProfileDocument>(
      await t.anonymous.request(linkHref(await json<RootDocument>(await t.request('/')), 'profile') ?? ''),
    );
    expect(profile.vocabulary.controls.search?.targets['/books']?.fields.sort?.options).toEqual(field.options);
  });

  it('every choice is an order its listing accepts, and answers as its label says', async () => {
    for (const path of ['/books', '/authors']) {
      const { options } = await sortField(`${path}?page=1`);
      for (const choice of options as Choice[]) {
        const response = await t.request(`${path}?page=1${choice.value ? `&sort=${choice.value}` : ''}`);
        expect(response.status, `${path} ${choice.prompt}`).toBe(200);
      }
    }
    const search = '/books?query=sorted&page=1';
    expect(await titles(`${search}&sort=title`)).toEqual(['Alpha Sorted', 'Middle Sorted', 'Zulu Sorted']);
    expect(await titles(`${search}&sort=-title`)).toEqual(['Zulu Sorted', 'Middle Sorted', 'Alpha Sorted']);
    expect(await titles(`${search}&sort=-publication_year`)).toEqual(['Zulu Sorted', 'Middle Sorted', 'Alpha Sorted']);
    expect(await titles(`${search}&sort=publication_year`)).toEqual(['Alpha Sorted', 'Middle Sorted', 'Zulu Sorted']);
  });

  it('a sort that is not among the choices is still accepted, and a bad one is still refused', async () => {
    expect(await titles('/books?query=sorted&page=1&sort=title,-id')).toEqual([
      'Alpha Sorted',
      'Middle Sorted',
      'Zulu Sorted',
    ]);
    const refused = await t.request('/books?page=1&sort=colour');
    expect(refused.status).toBe(400);
    expect((await json<ErrorDocument>(refused)).error.code).toBe(400);
  });

  it('OpenAPI names the labelled orders of each listing as examples of `sort`, each accepted there', async () => {
    const doc = await json<OpenApiDocument>(
      await t.request(linkHref(await json<RootDocument>(await t.request('/')), 'service-desc') ?? ''),
    );
    const examplesOf = (path: string) =>
      doc.paths[path]?.get?.parameters?.find((p: { name: string }) => p.name === 'sort')?.examples as Record<
        string,
        { summary: string; value: string }
      >;
    expect(examplesOf('/books')['-publication_year']).toEqual({ summary: 'Newest first', value: '-publication_year' });
    for (const path of ['/books', '/authors', '/users', '/loans']) {
      const examples = Object.values(examplesOf(path));
      expect(examples.length, path).toBeGreaterThan(0);
      for (const { value } of examples) {
        expect((await t.request(`${path}?page=1&sort=${value}`)).status, `${path} ${value}`).toBe(200);
      }
    }
  });
});
