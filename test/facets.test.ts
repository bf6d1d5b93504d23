/**
 * Facets of book listings (`facets=author,decade,available`): counted values, each linked to the listing
 * narrowed to it, which answers exactly that count, also right after concurrent writes; chosen values and
 * the links that remove them; invalid `facets`; estimates past the count limit; HAL's `facet` links; the
 * search control and the root's search template declaring the parameter.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDocument } from '../src/mcp/document.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrow, borrowed } from './support/circulation.js';
import {
  type ControlDoc,
  controlOf,
  type HalDocument,
  linkOf,
  type OpenApiDocument,
  type ProfileDocument,
  present,
  type RootDocument,
} from './support/documents.js';
import { expectError } from './support/errors.js';

interface FacetValue {
  value: string;
  label: string;
  count: number;
  chosen: boolean;
  href: string;
}
interface Facet {
  name: string;
  title: string;
  values: FacetValue[];
  estimated?: true;
}
interface Page {
  data: { id: number; title: string; links: { rel: string; href: string }[] }[];
  meta: { page: number; per_page: number; total_items: number; total_items_estimated?: true };
  facets?: Facet[];
  links: { rel: string; href: string; title?: string }[];
  controls: Record<string, ControlDoc>;
}

async function page(t: TestCatalogue, path: string): Promise<Page> {
  const response = await t.request(path);
  expect(response.status, path).toBe(200);
  return json<Page>(response);
}

/** The values of one facet as `label: count`, in the order shown. */
function counts(body: Page, name: string): Record<string, number> {
  const facet = body.facets?.find((f) => f.name === name);
  expect(facet, `facet ${name}`).toBeDefined();
  return Object.fromEntries((facet as Facet).values.map((v) => [v.label, v.count]));
}

function facetValue(body: Page, name: string, label: string): FacetValue {
  const value = body.facets?.find((f) => f.name === name)?.values.find((v) => v.label === label);
  expect(value, `${name} value ${label}`).toBeDefined();
  return value as FacetValue;
}

/** Follows every value's link: each listing answers exactly the value's count, and the chosen state. */
async function expectEveryLinkAnswersItsCount(t: TestCatalogue, body: Page) {
  for (const facet of body.facets ?? []) {
    expect(facet.estimated).toBeUndefined();
    for (const value of facet.values) {
      if (value.chosen) continue;
      const narrowed = await page(t, value.href);
      const what = `${facet.name} ${value.label} → ${value.href}`;
      expect(narrowed.meta.total_items, what).toBe(value.count);
      expect(narrowed.meta.page, what).toBe(1);
      expect(narrowed.meta.total_items_estimated, what).toBeUndefined();
      // The narrowed listing shows the value as chosen, with the same count.
      const again = narrowed.facets?.find((f) => f.name === facet.name)?.values.find((v) => v.value === value.value);
      expect(again, what).toMatchObject({ chosen: true, count: value.count });
    }
  }
}

describe('facets of book listings', () => {
  let t: TestCatalogue;
  const a = { austen: 0, brontë: 0, collins: 0 };
  const b: Record<string, number> = {};

  beforeAll(async () => {
    t = await openTestCatalogue();
    a.austen = await addAuthor(t, 'Jane Austen');
    a.brontë = await addAuthor(t, 'Anne Brontë');
    a.collins = await addAuthor(t, 'Wilkie Collins');
    b.emma = await addBook(t, 'Emma by the river', 1815, a.austen);
    b.persuasion = await addBook(t, 'Persuasion', 1817, a.austen);
    b.sanditon = await addBook(t, 'Sanditon river', 1925, a.austen);
    b.agnes = await addBook(t, 'Agnes Grey', 1847, a.brontë);
    b.tenant = await addBook(t, 'The Tenant of Wildfell Hall river', 1848, a.brontë);
    b.moonstone = await addBook(t, 'The Moonstone', 1868, a.collins);
    b.woman = await addBook(t, 'The Woman in White', 1859, a.collins);
    b.ancient = await addBook(t, 'An ancient river tablet', -5, a.collins);
    const member = await addUser(t, 'Reader');
    for (const id of [b.persuasion, b.tenant]) {
      await borrowed(t.as(member.token), id);
    }
  });
  afterAll(() => t.close());

  it('counts authors, decades and availability over the whole listing', async () => {
    const body = await page(t, '/books?per_page=2&facets=author,decade,available');
    expect(body.meta.total_items).toBe(8);
    expect(body.data).toHaveLength(2);
    expect(body.facets?.map((f) => [f.name, f.title])).toEqual([
      ['author', 'Author'],
      ['decade', 'Decade'],
      ['available', 'Availability'],
    ]);
    // Authors by how many books they have (ties by id), decades in time, on the shelf first.
    expect(Object.entries(counts(body, 'author'))).toEqual([
      ['Jane Austen', 3],
      ['Wilkie Collins', 3],
      ['Anne Brontë', 2],
    ]);
    expect(Object.entries(counts(body, 'decade'))).toEqual([
      ['-10s', 1],
      ['1810s', 2],
      ['1840s', 2],
      ['1850s', 1],
      ['1860s', 1],
      ['1920s', 1],
    ]);
    expect(Object.entries(counts(body, 'available'))).toEqual([
      ['On the shelf', 6],
      ['All out', 2],
    ]);
    expect(facetValue(body, 'author', 'Jane Austen')).toMatchObject({ value: String(a.austen), chosen: false });
    expect(facetValue(body, 'decade', '1810s')).toMatchObject({ value: '1810', chosen: false });
    expect(facetValue(body, 'available', 'All out')).toMatchObject({ value: 'false', chosen: false });
    // `facets` stays in the page's own links, so paging keeps the facets.
    for (const rel of ['self', 'first', 'next', 'last']) {
      expect(body.links.find((l) => l.rel === rel)?.href, rel).toContain('facets=author%2Cdecade%2Cavailable');
    }
    await expectEveryLinkAnswersItsCount(t, body);
  });

  it('keeps `facets` out of the cursor: a next link answers with or without it', async () => {
    const body = await page(t, '/books?per_page=3&facets=decade');
    const next = body.links.find((l) => l.rel === 'next')?.href as string;
    const withFacets = await page(t, next);
    expect(withFacets.facets).toEqual(body.facets);
    const without = await page(t, next.replace(/&facets=decade/, ''));
    expect(without).not.toHaveProperty('facets');
    expect(without.data).toEqual(withFacets.data);
  });

  it('counts only the facets asked for, in the order asked', async () => {
    const body = await page(t, '/books?page=1&facets=available,decade');
    expect(body.facets?.map((f) => f.name)).toEqual(['available', 'decade']);
  });

  it('counts a search, and an author’s books, over their own matches', async () => {
    const search = await page(t, '/books?query=river&facets=author,decade,available');
    expect(search.meta.total_items).toBe(4);
    expect(counts(search, 'author')).toEqual({ 'Jane Austen': 2, 'Anne Brontë': 1, 'Wilkie Collins': 1 });
    expect(counts(search, 'available')).toEqual({ 'On the shelf': 3, 'All out': 1 });
    await expectEveryLinkAnswersItsCount(t, search);
    const hrefs = search.facets?.flatMap((f) => f.values.map((v) => v.href)) ?? [];
    for (const href of hrefs) expect(href).toContain('query=river');

    const named = await page(t, '/books?author=austen&facets=decade');
    expect(counts(named, 'decade')).toEqual({ '1810s': 2, '1920s': 1 });
    await expectEveryLinkAnswersItsCount(t, named);

    const own = await page(t, `/authors/${a.brontë}/books?page=1&facets=author,decade,available`);
    expect(counts(own, 'author')).toEqual({ 'Anne Brontë': 2 });
    expect(counts(own, 'decade')).toEqual({ '1840s': 2 });
    expect(counts(own, 'available')).toEqual({ 'On the shelf': 1, 'All out': 1 });
    for (const href of own.facets?.flatMap((f) => f.values.map((v) => v.href)) ?? []) {
      expect(href).toMatch(new RegExp(`^/authors/${a.brontë}/books\\?`));
    }
    await expectEveryLinkAnswersItsCount(t, own);
  });

  it('filters by decade: the ten years from a multiple of ten, negative years included', async () => {
    const decade = await page(t, '/books?page=1&filter=decade:1840');
    expect(decade.data.map((book) => book.id).sort()).toEqual([b.agnes, b.tenant].sort());
    const either = await page(t, '/books?page=1&filter=decade:1840&filter=decade:1810');
    expect(either.meta.total_items).toBe(4);
    const before = await page(t, '/books?page=1&filter=decade:-10');
    expect(before.data.map((book) => book.id)).toEqual([b.ancient]);
    for (const bad of ['1815', 'x', '1e3', '-3010', '2110', '']) {
      await expectError(await t.request(`/books?page=1&filter=decade:${bad}`), 400, { details: ['filter'] });
    }
  });

  it('marks a chosen value, lists it, and links to the listing without it', async () => {
    const listing = '/books?query=river&per_page=3&facets=author,decade,available';
    const whole = await page(t, listing);
    const narrowedHref = facetValue(whole, 'decade', '1810s').href;
    const narrowed = await page(t, `${narrowedHref}&filter=available:true`);
    expect(narrowed.meta.total_items).toBe(1);
    const chosen = facetValue(narrowed, 'decade', '1810s');
    expect(chosen).toMatchObject({ chosen: true, count: 1 });
    const shelf = facetValue(narrowed, 'available', 'On the shelf');
    expect(shelf).toMatchObject({ chosen: true, count: 1 });
    // Removing the decade answers the listing with availability alone, from page 1, per_page kept.
    const withoutDecade = await page(t, chosen.href);
    const availableOnly = await page(
      t,
      '/books?query=river&per_page=3&filter=available:true&facets=author,decade,available',
    );
    expect(withoutDecade.meta).toEqual(availableOnly.meta);
    expect(withoutDecade.data).toEqual(availableOnly.data);
    expect(withoutDecade.facets).toEqual(availableOnly.facets);
    // Removing both gives the listing as it was.
    const neither = await page(t, facetValue(withoutDecade, 'available', 'On the shelf').href);
    expect(neither.meta).toEqual(whole.meta);
    expect(neither.facets).toEqual(whole.facets);
  });

  it('shows a chosen value even when nothing matches it, by name', async () => {
    const body = await page(t, `/books?query=moonstone&filter=author_id:${a.austen}&facets=author,decade`);
    expect(body.meta.total_items).toBe(0);
    expect(body.facets?.[0]?.values).toEqual([
      expect.objectContaining({ label: 'Jane Austen', count: 0, chosen: true, value: String(a.austen) }),
    ]);
    expect(body.facets?.[1]?.values).toEqual([]);
    const removed = await page(t, body.facets?.[0]?.values[0]?.href as string);
    expect(removed.meta.total_items).toBe(1);
    // An author chosen twice is one choice; one that does not exist is shown by id.
    const twice = await page(t, `/books?filter=author_id:${a.austen}&filter=author_id:${a.austen}&facets=author`);
    expect(twice.facets?.[0]?.values).toHaveLength(1);
    const nobody = await page(t, '/books?filter=author_id:999999&facets=author');
    expect(nobody.facets?.[0]?.values).toEqual([
      expect.objectContaining({ value: '999999', label: 'Author 999999', count: 0, chosen: true }),
    ]);
  });

  it('asks for a page envelope: `facets` alone answers page 1', async () => {
    const body = await page(t, '/books?facets=decade');
    expect(body.meta).toMatchObject({ page: 1, per_page: 20, total_items: 8 });
    expect(body.facets).toHaveLength(1);
  });

  it('leaves a listing without `facets` without facets', async () => {
    const body = await page(t, '/books?page=1');
    expect(body).not.toHaveProperty('facets');
    const hal = await json<HalDocument>(
      await t.request('/books?page=1', { headers: { Accept: 'application/hal+json' } }),
    );
    expect(hal).not.toHaveProperty('facets');
    expect(hal._links).not.toHaveProperty('facet');
  });

  it('refuses unknown, repeated or empty facet names, and `facets` where none are offered', async () => {
    for (const bad of ['colour', 'author,author', '', 'author,', ',decade', 'Author']) {
      await expectError(await t.request(`/books?page=1&facets=${encodeURIComponent(bad)}`), 400, {
        details: ['facets'],
        what: bad,
      });
    }
    await expectError(await t.request('/books?facets=author&facets=decade'), 400, { details: ['facets'] });
    await expectError(await t.request('/authors?page=1&facets=author'), 400, { details: ['facets'] });
    await expectError(await t.request('/loans?page=1&facets=author'), 400, { details: ['facets'] });
  });

  it('shows facets in HAL and HAL-FORMS as a property and as `facet` links', async () => {
    for (const accept of ['application/hal+json', 'application/prs.hal-forms+json']) {
      const response = await t.request('/books?page=1&facets=author,available', { headers: { Accept: accept } });
      const hal = await json<HalDocument>(response);
      const seed = await page(t, '/books?page=1&facets=author,available');
      expect(hal.facets, accept).toEqual(seed.facets);
      const links = hal._links.facet as { href: string; title: string }[];
      expect(links, accept).toHaveLength(5);
      expect(links, accept).toContainEqual({
        href: facetValue(seed, 'author', 'Jane Austen').href,
        title: 'Author: Jane Austen (3)',
      });
      expect(links, accept).toContainEqual({
        href: facetValue(seed, 'available', 'All out').href,
        title: 'Availability: All out (2)',
      });
    }
  });

  it('shows facets in the HTML view as links, a chosen one marked', async () => {
    const response = await t.request(`/books?page=1&facets=author,decade&filter=author_id:${a.brontë}`, {
      headers: { Accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<nav class="facets"');
    expect(html).toMatch(/<a rel="facet" href="[^"]*" data-chosen="" aria-label="Remove Author: Anne Brontë">/);
    expect(html).toMatch(
      /<a rel="facet" href="[^"]*filter=decade%3A1840[^"]*">1840s<\/a> <span class="count">2<\/span>/,
    );
  });

  it('is described by the profile and OpenAPI: the parameter, the shape and the rel', async () => {
    const profile = await json<ProfileDocument>(await t.request('/profile'));
    expect(profile.vocabulary.rels.facet?.means).toMatch(/narrowed/);
    expect(Object.keys(profile.listing_facets)).toEqual(['parameter', 'values', 'estimated']);
    const searchAt = present(profile.vocabulary.controls.search, 'the search control').targets;
    expect(Object.keys(present(searchAt['/books'], 'the search of books').fields)).toContain('facets');
    const openapi = await json<OpenApiDocument>(await t.request('/openapi.json'));
    const parameter = openapi.paths['/books']?.get?.parameters?.find((p: { name: string }) => p.name === 'facets');
    const pattern = present(parameter?.schema?.pattern, 'the pattern of facets');
    expect(new RegExp(pattern).test('author,decade,available')).toBe(true);
    expect(new RegExp(pattern).test('colour')).toBe(false);
    expect(openapi.components.schemas.Facet?.properties?.name?.enum).toEqual([
      'author',
      'decade',
      'available',
      'language',
      'subject',
    ]);
    expect(openapi.components.schemas.Link?.properties?.rel?.enum).toContain('facet');
  });

  it('declares `facets` in the search control and the root’s search template', async () => {
    const books = await page(t, '/books?page=1');
    const field = controlOf(books, 'search').fields.find((f) => f.name === 'facets');
    expect(field).toMatchObject({ name: 'facets', type: 'string', required: false });
    expect(field?.title).toContain('author, decade, available');
    const own = await page(t, `/authors/${a.austen}/books?page=1`);
    expect(controlOf(own, 'search').fields.map((f) => f.name)).toContain('facets');
    const authors = await page(t, '/authors?page=1');
    expect(controlOf(authors, 'search').fields.map((f) => f.name)).not.toContain('facets');
    const root = await json<RootDocument>(await t.request('/'));
    const search = linkOf(root, 'search');
    expect(search.templated).toBe(true);
    expect(search.href).toMatch(/[{,]facets[,}]/);
  });
});

describe('facets right after concurrent writes', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue();
  });
  afterAll(() => t.close());

  it('every value’s link answers its count after 20 creations and borrows at once', async () => {
    const authors = [await addAuthor(t, 'Ada Early'), await addAuthor(t, 'Ben Later')];
    const seeded: number[] = [];
    for (let i = 0; i < 10; i++) seeded.push(await addBook(t, `Seeded ${i}`, 1900 + i * 7, authors[i % 2] as number));
    const members = [await addUser(t, 'One'), await addUser(t, 'Two')];
    const writes = [
      ...Array.from({ length: 10 }, (_, i) =>
        t.send('POST', '/books', { title: `Written ${i}`, publication_year: 1950 + i * 3, author_id: authors[i % 2] }),
      ),
      ...seeded.map((id, i) => borrow(t.as((members[i % 2] as { token: string }).token), id)),
    ];
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    const body = await page(t, '/books?page=1&facets=author,decade,available');
    expect(body.meta.total_items).toBe(20);
    expect(counts(body, 'available')).toEqual({ 'On the shelf': 10, 'All out': 10 });
    expect(counts(body, 'author')).toEqual({ 'Ada Early': 10, 'Ben Later': 10 });
    expect(Object.values(counts(body, 'decade')).reduce((x, y) => x + y, 0)).toBe(20);
    await expectEveryLinkAnswersItsCount(t, body);
  });
});

describe('facets past the count limit', () => {
  let t: TestCatalogue;
  /** Matches counted exactly; past it, a sample of ten times (one more than) this many is counted. */
  const LIMIT = 1;
  const SAMPLE = (LIMIT + 1) * 10;

  beforeAll(async () => {
    t = await openTestCatalogue({ listingCountLimit: LIMIT });
    const author = await addAuthor(t, 'Prolific Writer');
    const other = await addAuthor(t, 'Rare Writer');
    for (let i = 0; i < 12; i++) await addBook(t, `Many ${i}`, 1990 + i, i < 10 ? author : other);
    for (let i = 0; i < SAMPLE; i++) await addBook(t, `Plenty ${i}`, 1700 + i, author);
  });
  afterAll(() => t.close());

  it('marks counts over more matches than the limit as estimates, and exact ones not', async () => {
    const many = await page(t, '/books?query=many&page=1&facets=author,decade,available');
    expect(many.meta.total_items_estimated).toBe(true);
    for (const facet of many.facets ?? []) expect(facet.estimated, facet.name).toBe(true);
    // All 12 fit in the sample: counted, though past the limit marked as estimates.
    expect(counts(many, 'author')).toEqual({ 'Prolific Writer': 10, 'Rare Writer': 2 });
    expect(counts(many, 'available')).toEqual({ 'On the shelf': 12 });
    // More than the sample: counted over it, scaled to the listing's estimated total (never below the sample).
    const plenty = await page(t, '/books?query=plenty&page=1&facets=available');
    expect(plenty.meta.total_items_estimated).toBe(true);
    expect(plenty.facets?.[0]?.estimated).toBe(true);
    expect(counts(plenty, 'available')).toEqual({ 'On the shelf': Math.max(plenty.meta.total_items, SAMPLE) });
    // Within the limit: exact again, and unmarked.
    const few = await page(t, '/books?query=many&page=1&facets=decade&filter=publication_year:2001');
    expect(few.meta.total_items).toBe(1);
    expect(few.meta.total_items_estimated).toBeUndefined();
    expect(few.facets?.[0]?.estimated).toBeUndefined();
    expect(counts(few, 'decade')).toEqual({ '2000s': 1 });
  });
});

describe('facets for an agent (MCP)', () => {
  const base = 'https://library.example';
  let t: TestCatalogue;
  let client: Client;

  beforeAll(async () => {
    t = await openTestCatalogue({ seedSample: true, publicUrl: base });
    client = new Client({ name: 'catalogue-test', version: '1.0.0' });
    const inProcess = (url: string | URL, init?: RequestInit) => {
      const at = new URL(url);
      return t.anonymous.request(at.pathname + at.search, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: inProcess }));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  /** A tool's answer: its text, and the document it gives as structured content. */
  async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; doc: AgentDocument }> {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text: string }[])[0]?.text as string;
    expect(result.isError, text).toBeFalsy();
    return { text, doc: result.structuredContent as AgentDocument };
  }

  it('searches, then narrows by a facet, from tool results alone', async () => {
    const { doc: root } = await call('start', {});
    const search = await call('follow', {
      url: root.url,
      rel: 'search',
      values: { query: 'austen', facets: 'decade,available' },
    });
    expect(search.doc.facets?.map((f) => f.name)).toEqual(['decade', 'available']);
    const decade = present(
      search.doc.facets?.[0]?.values.find((v) => v.label === '1810s'),
      'the 1810s',
    );
    expect(search.text).toContain(`1810s (${decade.count}): ${decade.href}`);
    const narrowed = await call('get', { url: decade.href });
    expect(narrowed.doc.meta?.total_items).toBe(decade.count);
    expect(narrowed.doc.items?.every((item) => typeof item.title === 'string')).toBe(true);
    expect(narrowed.doc.facets?.[0]?.values).toEqual([expect.objectContaining({ label: '1810s', chosen: true })]);
  });
});
