/**
 * The listing conventions of every collection (`/books`, `/authors`, `/authors/{id}/books`): the bare array
 * and the page envelope, paging arithmetic and links, sort, filter, author, query, fields, and every
 * invalid form of a listing parameter. The whole dataset is created once in `beforeAll` and never changed,
 * so counts and orders are exactly known.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type AuthorDocument,
  type BookDocument,
  type ControlDoc,
  type Document,
  linkHeader,
  type Member,
} from './support/documents.js';
import { expectError } from './support/errors.js';

interface Link {
  rel: string;
  href: string;
  title?: string;
}
/** A book or an author as a listing has it; `fields=` may leave any member out but `links`. */
type Item = Member<Document<Partial<BookDocument & AuthorDocument>>>;
interface Page {
  data: Item[];
  meta: { page: number; per_page: number; total_pages: number; total_items: number };
  links: Link[];
  controls: Record<string, ControlDoc>;
}
/**
 * A parsed href: its path and every query parameter with all its values. A keyset cursor (opaque to
 * clients) is shown as `direction:page`, which is what these tests check of it.
 */
interface Target {
  path: string;
  params: Record<string, string[]>;
}

let t: TestCatalogue;

/** Ids of the fixtures, filled in by `beforeAll`. */
const a = {
  paula: 0,
  sam: 0,
  tolkien: 0,
  sebald: 0,
  garcia: 0,
  ida: 0,
  mira: 0,
  percent: 0,
  percentDecoy: 0,
  underscore: 0,
  underscoreDecoy: 0,
  colon: 0,
  twinA: 0,
  twinB: 0,
  nobody: 0,
};
const b = {
  delta: 0,
  alpha2000: 0,
  charlie: 0,
  bravo: 0,
  alpha1980: 0,
  echo: 0,
  hobbit: 0,
  lotr: 0,
  saturn: 0,
  ringsAndLord: 0,
  solitude: 0,
  cholera: 0,
  quietHarbor: 0,
  dragonSeason: 0,
  percentBook: 0,
  percentDecoyBook: 0,
  underscoreBook: 0,
  underscoreDecoyBook: 0,
  redwall: 0,
  mossflower: 0,
};
/** Paula Pager's 25 books, in creation (= id) order; volume n is published in 1900 + n. */
const paulaBooks: number[] = [];
/** Every author id (25 in all) and every book id (45 in all), ascending. */
let allAuthors: number[] = [];
let allBooks: number[] = [];

beforeAll(async () => {
  t = await openTestCatalogue();
  const author = async (name: string) => {
    const id = await addAuthor(t, name);
    allAuthors.push(id);
    return id;
  };
  const book = async (title: string, year: number, authorId: number) => {
    const id = await addBook(t, title, year, authorId);
    allBooks.push(id);
    return id;
  };

  a.paula = await author('Paula Pager');
  for (let n = 1; n <= 25; n++) {
    paulaBooks.push(await book(`Paging Volume ${String(n).padStart(2, '0')}`, 1900 + n, a.paula));
  }

  a.sam = await author('Sam Sorter');
  b.delta = await book('Delta', 1990, a.sam);
  b.alpha2000 = await book('Alpha', 2000, a.sam);
  b.charlie = await book('Charlie', 1990, a.sam);
  b.bravo = await book('Bravo', 2000, a.sam);
  b.alpha1980 = await book('Alpha', 1980, a.sam);
  b.echo = await book('Echo', 2000, a.sam);

  a.tolkien = await author('J. R. R. Tolkien');
  b.hobbit = await book('The Hobbit', 1937, a.tolkien);
  b.lotr = await book('The Lord of the Rings', 1954, a.tolkien);

  a.sebald = await author('W. G. Sebald');
  b.saturn = await book('The Rings of Saturn', 1995, a.sebald);
  b.ringsAndLord = await book('Rings and the Lord', 1996, a.sebald);

  a.garcia = await author('Gabriel García Márquez');
  b.solitude = await book('One Hundred Years of Solitude', 1967, a.garcia);
  b.cholera = await book('Love in the Time of Cholera', 1985, a.garcia);

  // "dragon" is in Ida's name but in Mira's title; Ida's book comes first by id.
  a.ida = await author('Ida Dragon');
  b.quietHarbor = await book('Quiet Harbor', 2010, a.ida);
  a.mira = await author('Mira Quill');
  b.dragonSeason = await book('Dragon Season', 2011, a.mira);

  a.percent = await author('Percy 100% Pure');
  b.percentBook = await book('Percent Book', 2001, a.percent);
  a.percentDecoy = await author('Percy 1000 Pure');
  b.percentDecoyBook = await book('Percent Decoy Book', 2002, a.percentDecoy);
  a.underscore = await author('Kirk Under_Score');
  b.underscoreBook = await book('Underscore Book', 2003, a.underscore);
  a.underscoreDecoy = await author('Kirk Underscore');
  b.underscoreDecoyBook = await book('Underscore Decoy Book', 2004, a.underscoreDecoy);

  a.colon = await author('Rosa Colon');
  b.redwall = await book('Redwall', 1986, a.colon);
  b.mossflower = await book('Redwall: Mossflower', 1988, a.colon);

  a.twinA = await author('Kim Twin');
  a.twinB = await author('Kim Twin');
  a.nobody = await author('Nadia Nobooks');
  for (let n = 1; n <= 10; n++) await author(`Filler Author ${String(n).padStart(2, '0')}`);

  allAuthors = [...allAuthors].sort((x, y) => x - y);
  allBooks = [...allBooks].sort((x, y) => x - y);
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** A query string from name/value pairs, each value percent-encoded. */
function qs(params: [string, string | number][]): string {
  if (params.length === 0) return '';
  return `?${params.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`;
}

function parseHref(href: string): Target {
  const url = new URL(href, 'http://catalogue.test');
  const params: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) {
    params[k] ??= [];
    params[k].push(k === 'cursor' ? describeCursor(v) : v);
  }
  return { path: url.pathname, params };
}

function describeCursor(text: string): string {
  const [page, direction] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  return `${{ a: 'after', b: 'before', l: 'last' }[direction as 'a' | 'b' | 'l']}:${page}`;
}

/** The links by rel, each href parsed; fails when a rel appears twice. */
function linkTargets(links: Link[]): Record<string, Target> {
  const byRel = Object.fromEntries(links.map((l) => [l.rel, parseHref(l.href)]));
  expect(Object.keys(byRel)).toHaveLength(links.length);
  return byRel;
}

async function getArray(path: string): Promise<{ items: Item[]; response: Response }> {
  const response = await t.request(path);
  expect(response.status, path).toBe(200);
  const items = await json<Item[]>(response);
  expect(Array.isArray(items), path).toBe(true);
  return { items, response };
}

async function getPage(path: string): Promise<{ page: Page; response: Response }> {
  const response = await t.request(path);
  expect(response.status, path).toBe(200);
  const page = await json<Page>(response);
  expect(Object.keys(page).sort(), path).toEqual(['controls', 'data', 'links', 'meta']);
  return { page, response };
}

const ids = (items: Item[]) => items.map((item) => item.id as number);
const arrayIds = async (path: string) => ids((await getArray(path)).items);
const pageIds = async (path: string) => ids((await getPage(path)).page.data);

/** Ids of the items in both forms, asserting the two agree (the page form with per_page 100). */
async function listedIds(path: string, params: [string, string | number][]): Promise<number[]> {
  const bare = await arrayIds(path + qs(params));
  const paged = await pageIds(path + qs([...params, ['per_page', 100]]));
  expect(paged).toEqual(bare);
  return bare;
}

async function expect400(path: string, parameter: string) {
  const message = new RegExp(`\\b${parameter}\\b`);
  await expectError(await t.request(path), 400, { what: path, message, details: [parameter] });
}

/** The three collections, each with a listing of exactly 25 items (some through a filter). */
interface Collection25 {
  label: string;
  path: () => string;
  /** Listing parameters that narrow the collection to the 25 items (carried into every paging link). */
  scope: () => [string, string][];
  ids: () => number[];
  /** Links every page of this collection carries besides the paging links. */
  extraLinks: () => Record<string, Target>;
  /** The controls a librarian is offered on every page, sorted. */
  controls: string[];
}

const collections25: Collection25[] = [
  {
    label: '/books (filtered to one author)',
    path: () => '/books',
    scope: () => [['filter', `author_id:${a.paula}`]],
    ids: () => paulaBooks,
    extraLinks: () => ({}),
    // The books collection also takes records in.
    controls: ['create', 'import', 'search'],
  },
  {
    label: '/authors/{id}/books',
    path: () => `/authors/${a.paula}/books`,
    scope: () => [],
    ids: () => paulaBooks,
    extraLinks: () => ({ up: { path: `/authors/${a.paula}`, params: {} } }),
    controls: ['create', 'search'],
  },
  {
    label: '/authors',
    path: () => '/authors',
    scope: () => [],
    ids: () => allAuthors,
    extraLinks: () => ({}),
    controls: ['create', 'search'],
  },
];

function scopeParams(c: Collection25): Record<string, string[]> {
  const params: Record<string, string[]> = {};
  for (const [k, v] of c.scope()) {
    params[k] ??= [];
    params[k].push(v);
  }
  return params;
}

/** The expected links of page `page` of `last`/`totalPages` pages. */
function expectedPageLinks(
  c: Collection25,
  perPage: number,
  page: number,
  totalPages: number,
  other: Record<string, string[]> = scopeParams(c),
): Record<string, Target> {
  const at = (n: number): Target => ({
    path: c.path(),
    params: { ...other, page: [String(n)], per_page: [String(perPage)] },
  });
  const via = (direction: string, n: number): Target => ({
    path: c.path(),
    params: { ...other, per_page: [String(perPage)], cursor: [`${direction}:${n}`] },
  });
  const last = totalPages > 1 ? via('last', totalPages) : at(1);
  const links: Record<string, Target> = { self: at(page), first: at(1), last };
  if (page > 1) links.prev = page <= totalPages ? via('before', page - 1) : last;
  if (page < totalPages) links.next = via('after', page + 1);
  return { ...links, ...c.extraLinks() };
}

// ---------------------------------------------------------------------------------------------------------

describe('the bare array (no page, no per_page)', () => {
  it('/books is every book in id order, each item with its fields and links and no controls', async () => {
    const { items, response } = await getArray('/books');
    expect(ids(items)).toEqual(allBooks);
    expect(allBooks).toHaveLength(45);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const hobbit = items.find((item) => item.id === b.hobbit);
    expect(hobbit).toEqual({
      id: b.hobbit,
      title: 'The Hobbit',
      publication_year: 1937,
      author_id: a.tolkien,
      isbn: null,
      language: null,
      subjects: [],
      publisher: null,
      available: true,
      due_at: null,
      copies_total: 1,
      copies_available: 1,
      links: [
        { rel: 'self', href: `/books/${b.hobbit}` },
        { rel: 'author', href: `/authors/${a.tolkien}`, title: 'J. R. R. Tolkien' },
        { rel: 'collection', href: '/books?page=1&per_page=20' },
      ],
    });
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([
        'author_id',
        'available',
        'copies_available',
        'copies_total',
        'due_at',
        'id',
        'isbn',
        'language',
        'links',
        'publication_year',
        'publisher',
        'subjects',
        'title',
      ]);
      expect(item.links.map((l) => l.rel)).toEqual(['self', 'author', 'collection']);
    }
    expect(linkTargets(linkHeader(response))).toEqual({
      self: { path: '/books', params: {} },
      first: { path: '/books', params: { page: ['1'], per_page: ['20'] } },
    });
  });

  it('/authors is every author in id order, each item with links self, books, collection and no controls', async () => {
    const { items, response } = await getArray('/authors');
    expect(ids(items)).toEqual(allAuthors);
    expect(allAuthors).toHaveLength(25);
    expect(response.headers.get('content-length')).toBeNull();
    const tolkien = items.find((item) => item.id === a.tolkien);
    expect(tolkien).toEqual({
      id: a.tolkien,
      name: 'J. R. R. Tolkien',
      links: [
        { rel: 'self', href: `/authors/${a.tolkien}` },
        expect.objectContaining({ rel: 'books', href: `/authors/${a.tolkien}/books?page=1&per_page=20` }),
        { rel: 'collection', href: '/authors?page=1&per_page=20' },
      ],
    });
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['id', 'links', 'name']);
    expect(linkTargets(linkHeader(response))).toEqual({
      self: { path: '/authors', params: {} },
      first: { path: '/authors', params: { page: ['1'], per_page: ['20'] } },
    });
  });

  it('/authors/{id}/books is exactly that author\u2019s books, with an up link to the author', async () => {
    const { items, response } = await getArray(`/authors/${a.sam}/books`);
    expect(ids(items)).toEqual([b.delta, b.alpha2000, b.charlie, b.bravo, b.alpha1980, b.echo]);
    expect(items.every((item) => item.author_id === a.sam)).toBe(true);
    expect(items.every((item) => !('controls' in item))).toBe(true);
    expect(response.headers.get('content-length')).toBeNull();
    expect(linkTargets(linkHeader(response))).toEqual({
      self: { path: `/authors/${a.sam}/books`, params: {} },
      first: { path: `/authors/${a.sam}/books`, params: { page: ['1'], per_page: ['20'] } },
      up: { path: `/authors/${a.sam}`, params: {} },
    });
  });

  it('the Link header of a bare array carries the other listing parameters in self and first', async () => {
    const { response } = await getArray(
      `/authors/${a.sam}/books${qs([
        ['sort', '-title'],
        ['filter', 'publication_year:2000'],
        ['fields', 'id,title'],
      ])}`,
    );
    const other = { sort: ['-title'], filter: ['publication_year:2000'], fields: ['id,title'] };
    expect(linkTargets(linkHeader(response))).toEqual({
      self: { path: `/authors/${a.sam}/books`, params: other },
      first: { path: `/authors/${a.sam}/books`, params: { ...other, page: ['1'], per_page: ['20'] } },
      up: { path: `/authors/${a.sam}`, params: {} },
    });
  });

  it('an empty listing is an empty array', async () => {
    const { items, response } = await getArray(`/authors/${a.nobody}/books`);
    expect(items).toEqual([]);
    expect(linkTargets(linkHeader(response)).up).toEqual({ path: `/authors/${a.nobody}`, params: {} });
    expect((await getArray('/books?filter=publication_year:1111')).items).toEqual([]);
    expect((await getArray('/authors?filter=name:No%20Such%20Author')).items).toEqual([]);
  });
});

describe.each(collections25)('paging $label (25 items)', (c) => {
  const url = (params: [string, string | number][]) => c.path() + qs([...c.scope(), ...params]);

  it('per_page 10 gives 3 pages of 10, 10 and 5 items at offsets 0, 10, 20, with exact meta and links', async () => {
    const all = c.ids();
    expect(all).toHaveLength(25);
    for (const [page, slice] of [
      [1, all.slice(0, 10)],
      [2, all.slice(10, 20)],
      [3, all.slice(20, 25)],
    ] as const) {
      const { page: body, response } = await getPage(
        url([
          ['page', page],
          ['per_page', 10],
        ]),
      );
      expect(ids(body.data)).toEqual(slice);
      expect(body.meta).toEqual({ page, per_page: 10, total_pages: 3, total_items: 25 });
      const expected = expectedPageLinks(c, 10, page, 3);
      expect(linkTargets(body.links)).toEqual(expected);
      expect(linkTargets(linkHeader(response))).toEqual(expected);
      expect(Object.keys(body.controls).sort()).toEqual(c.controls);
      for (const item of body.data) expect(item).not.toHaveProperty('controls');
    }
  });

  it('page 2 alone means per_page 20: the last 5 items', async () => {
    const { page } = await getPage(url([['page', 2]]));
    expect(ids(page.data)).toEqual(c.ids().slice(20));
    expect(page.meta).toEqual({ page: 2, per_page: 20, total_pages: 2, total_items: 25 });
    expect(linkTargets(page.links)).toEqual(expectedPageLinks(c, 20, 2, 2));
  });

  it('per_page alone means page 1', async () => {
    const { page } = await getPage(url([['per_page', 7]]));
    expect(ids(page.data)).toEqual(c.ids().slice(0, 7));
    expect(page.meta).toEqual({ page: 1, per_page: 7, total_pages: 4, total_items: 25 });
    expect(linkTargets(page.links)).toEqual(expectedPageLinks(c, 7, 1, 4));
  });

  it('page 1 alone means per_page 20: the first 20 items', async () => {
    const { page } = await getPage(url([['page', 1]]));
    expect(ids(page.data)).toEqual(c.ids().slice(0, 20));
    expect(page.meta).toEqual({ page: 1, per_page: 20, total_pages: 2, total_items: 25 });
  });

  it('per_page 25 is exactly one page; per_page 100 and per_page 1 are accepted', async () => {
    const one = await getPage(url([['per_page', 25]]));
    expect(ids(one.page.data)).toEqual(c.ids());
    expect(one.page.meta).toEqual({ page: 1, per_page: 25, total_pages: 1, total_items: 25 });
    expect(linkTargets(one.page.links)).toEqual(expectedPageLinks(c, 25, 1, 1));
    expect(one.page.links.map((l) => l.rel)).not.toContain('next');
    expect(one.page.links.map((l) => l.rel)).not.toContain('prev');

    const max = await getPage(url([['per_page', 100]]));
    expect(ids(max.page.data)).toEqual(c.ids());
    expect(max.page.meta).toEqual({ page: 1, per_page: 100, total_pages: 1, total_items: 25 });

    const single = await getPage(
      url([
        ['page', 25],
        ['per_page', 1],
      ]),
    );
    expect(ids(single.page.data)).toEqual([c.ids()[24]]);
    expect(single.page.meta).toEqual({ page: 25, per_page: 1, total_pages: 25, total_items: 25 });
    expect(linkTargets(single.page.links)).toEqual(expectedPageLinks(c, 1, 25, 25));
  });

  it('a page past the end is 200 with no data, correct meta, and prev pointing at the last page', async () => {
    const { page, response } = await getPage(
      url([
        ['page', 4],
        ['per_page', 10],
      ]),
    );
    expect(page.data).toEqual([]);
    expect(page.meta).toEqual({ page: 4, per_page: 10, total_pages: 3, total_items: 25 });
    const expected = expectedPageLinks(c, 10, 4, 3);
    expect(expected.prev?.params.cursor).toEqual(['last:3']);
    expect(expected.next).toBeUndefined();
    expect(linkTargets(page.links)).toEqual(expected);
    expect(linkTargets(linkHeader(response))).toEqual(expected);

    const far = await getPage(
      url([
        ['page', 2147483647],
        ['per_page', 100],
      ]),
    );
    expect(far.page.data).toEqual([]);
    expect(far.page.meta).toEqual({ page: 2147483647, per_page: 100, total_pages: 1, total_items: 25 });
  });

  it('following next from page 1 visits every item exactly once, in order, and then next disappears', async () => {
    let next: string | undefined = url([['per_page', 4]]);
    const seen: number[] = [];
    const pages: number[] = [];
    while (next !== undefined) {
      const { page } = await getPage(next);
      pages.push(page.meta.page);
      seen.push(...ids(page.data));
      expect(page.meta.total_pages).toBe(7);
      next = page.links.find((l) => l.rel === 'next')?.href;
      expect(pages.length).toBeLessThanOrEqual(7);
    }
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seen).toEqual(c.ids());
  });

  it('following prev from the last page walks back to page 1, where prev disappears', async () => {
    const { page: first } = await getPage(url([['per_page', 10]]));
    let prev: string | undefined = first.links.find((l) => l.rel === 'last')?.href;
    const pages: number[] = [];
    const seen: number[][] = [];
    while (prev !== undefined && pages.length < 4) {
      const { page } = await getPage(prev);
      pages.push(page.meta.page);
      seen.unshift(ids(page.data));
      prev = page.links.find((l) => l.rel === 'prev')?.href;
    }
    expect(prev).toBeUndefined();
    expect(pages).toEqual([3, 2, 1]);
    expect(seen.flat()).toEqual(c.ids());
  });
});

describe('paging across the whole of /books (45 books)', () => {
  it('per_page 10 gives 5 pages, the last holding 5 books; next visits all 45 in id order', async () => {
    let next: string | undefined = '/books?per_page=10';
    const seen: number[] = [];
    const metas: Page['meta'][] = [];
    while (next !== undefined && metas.length < 6) {
      const { page } = await getPage(next);
      metas.push(page.meta);
      seen.push(...ids(page.data));
      next = page.links.find((l) => l.rel === 'next')?.href;
    }
    expect(metas).toEqual([1, 2, 3, 4, 5].map((page) => ({ page, per_page: 10, total_pages: 5, total_items: 45 })));
    expect(seen).toEqual(allBooks);
  });
});

describe('paging links carry every other listing parameter', () => {
  it('with sort, filter (repeated), author, query and fields, following next keeps them all', async () => {
    // Every parameter narrows to exactly Paula's 25 books, newest first.
    const start = `/books${qs([
      ['author', 'pager'],
      ['filter', `author_id:${a.paula}`],
      ['filter', `author_id:${a.sam}`],
      ['sort', '-publication_year'],
      ['query', 'paging'],
      ['fields', 'id,publication_year'],
      ['per_page', 6],
    ])}`;
    const other = {
      author: ['pager'],
      filter: [`author_id:${a.paula}`, `author_id:${a.sam}`],
      sort: ['-publication_year'],
      query: ['paging'],
      fields: ['id,publication_year'],
    };
    let next: string | undefined = start;
    const seen: number[] = [];
    let page = 0;
    while (next !== undefined && page < 6) {
      const { page: body } = await getPage(next);
      page += 1;
      expect(body.meta).toEqual({ page, per_page: 6, total_pages: 5, total_items: 25 });
      const at = (n: number): Target => ({ path: '/books', params: { ...other, page: [String(n)], per_page: ['6'] } });
      const via = (cursor: string): Target => ({
        path: '/books',
        params: { ...other, per_page: ['6'], cursor: [cursor] },
      });
      // self is the link followed: page 1 by number, the others by cursor.
      const self = page === 1 ? at(1) : via(`after:${page}`);
      const expected: Record<string, Target> = { self, first: at(1), last: via('last:5') };
      if (page > 1) expected.prev = via(`before:${page - 1}`);
      if (page < 5) expected.next = via(`after:${page + 1}`);
      expect(linkTargets(body.links)).toEqual(expected);
      for (const item of body.data) expect(Object.keys(item).sort()).toEqual(['id', 'links', 'publication_year']);
      seen.push(...ids(body.data));
      next = body.links.find((l) => l.rel === 'next')?.href;
    }
    expect(page).toBe(5);
    expect(seen).toEqual([...paulaBooks].reverse());
  });

  it('a filter value with a colon and spaces survives the round trip through a paging link', async () => {
    const { page } = await getPage(
      `/books${qs([
        ['filter', 'title:Redwall: Mossflower'],
        ['per_page', 1],
      ])}`,
    );
    expect(ids(page.data)).toEqual([b.mossflower]);
    const self = page.links.find((l) => l.rel === 'self')?.href ?? '';
    expect(parseHref(self).params.filter).toEqual(['title:Redwall: Mossflower']);
    expect(await pageIds(self)).toEqual([b.mossflower]);
  });

  it('an empty page listing has total_pages 0, last = page 1, and neither prev nor next', async () => {
    const { page, response } = await getPage(`/authors/${a.nobody}/books?per_page=10&sort=title`);
    expect(page.data).toEqual([]);
    expect(page.meta).toEqual({ page: 1, per_page: 10, total_pages: 0, total_items: 0 });
    const at = (n: number): Target => ({
      path: `/authors/${a.nobody}/books`,
      params: { sort: ['title'], page: [String(n)], per_page: ['10'] },
    });
    const expected = { self: at(1), first: at(1), last: at(1), up: { path: `/authors/${a.nobody}`, params: {} } };
    expect(linkTargets(page.links)).toEqual(expected);
    expect(linkTargets(linkHeader(response))).toEqual(expected);

    const past = await getPage('/books?filter=publication_year:1111&page=3');
    expect(past.page.data).toEqual([]);
    expect(past.page.meta).toEqual({ page: 3, per_page: 20, total_pages: 0, total_items: 0 });
    expect(linkTargets(past.page.links).prev?.params.page).toEqual(['1']);
    expect(past.page.links.map((l) => l.rel).sort()).toEqual(['first', 'last', 'prev', 'self']);

    // A search that finds nothing (its page is not read once the count says so) answers the same way.
    const nothing = await getPage('/books?query=qwxzvbnm%20redwall&page=3');
    expect(nothing.page.data).toEqual([]);
    expect(nothing.page.meta).toEqual({ page: 3, per_page: 20, total_pages: 0, total_items: 0 });
    expect(nothing.page.links.map((l) => l.rel).sort()).toEqual(['first', 'last', 'prev', 'self']);

    const authors = await getPage('/authors?filter=name:No%20Such%20Author&per_page=5');
    expect(authors.page.data).toEqual([]);
    expect(authors.page.meta).toEqual({ page: 1, per_page: 5, total_pages: 0, total_items: 0 });
  });
});

describe('sort', () => {
  const sam = () => `/authors/${a.sam}/books`;

  it('ascending by title, ties (two "Alpha") broken by id ascending', async () => {
    expect(await listedIds(sam(), [['sort', 'title']])).toEqual([
      b.alpha2000,
      b.alpha1980,
      b.bravo,
      b.charlie,
      b.delta,
      b.echo,
    ]);
  });

  it('descending by title, ties still broken by id ascending', async () => {
    expect(await listedIds(sam(), [['sort', '-title']])).toEqual([
      b.echo,
      b.delta,
      b.charlie,
      b.bravo,
      b.alpha2000,
      b.alpha1980,
    ]);
  });

  it('by publication_year alone: equal years in id order', async () => {
    expect(await listedIds(sam(), [['sort', 'publication_year']])).toEqual([
      b.alpha1980,
      b.delta,
      b.charlie,
      b.alpha2000,
      b.bravo,
      b.echo,
    ]);
    expect(await listedIds(sam(), [['sort', '-publication_year']])).toEqual([
      b.alpha2000,
      b.bravo,
      b.echo,
      b.delta,
      b.charlie,
      b.alpha1980,
    ]);
  });

  it('multi-key: publication_year ascending then title descending, and the reverse combination', async () => {
    expect(await listedIds(sam(), [['sort', 'publication_year,-title']])).toEqual([
      b.alpha1980,
      b.delta,
      b.charlie,
      b.echo,
      b.bravo,
      b.alpha2000,
    ]);
    expect(await listedIds(sam(), [['sort', '-publication_year,title']])).toEqual([
      b.alpha2000,
      b.bravo,
      b.echo,
      b.charlie,
      b.delta,
      b.alpha1980,
    ]);
  });

  it('an explicit -id key overrides the id tie-break', async () => {
    expect(await listedIds(sam(), [['sort', 'title,-id']])).toEqual([
      b.alpha1980,
      b.alpha2000,
      b.bravo,
      b.charlie,
      b.delta,
      b.echo,
    ]);
    expect(await listedIds(sam(), [['sort', '-id']])).toEqual([
      b.echo,
      b.alpha1980,
      b.bravo,
      b.charlie,
      b.alpha2000,
      b.delta,
    ]);
  });

  it('/books by author_id then -publication_year, across two authors', async () => {
    const params: [string, string][] = [
      ['filter', `author_id:${a.tolkien}`],
      ['filter', `author_id:${a.garcia}`],
      ['sort', 'author_id,-publication_year'],
    ];
    expect(await listedIds('/books', params)).toEqual([b.lotr, b.hobbit, b.cholera, b.solitude]);
    expect(await listedIds('/books', [...params.slice(0, 2), ['sort', '-author_id,publication_year']])).toEqual([
      b.solitude,
      b.cholera,
      b.hobbit,
      b.lotr,
    ]);
  });

  it('/books sorted with paging: the page is cut from the sorted order', async () => {
    const { page } = await getPage(
      `/books${qs([
        ['sort', '-id'],
        ['page', 2],
        ['per_page', 10],
      ])}`,
    );
    expect(ids(page.data)).toEqual([...allBooks].reverse().slice(10, 20));
    expect(page.meta).toEqual({ page: 2, per_page: 10, total_pages: 5, total_items: 45 });
  });

  it('/authors by name ascending and descending, equal names ("Kim Twin" twice) by id ascending', async () => {
    const subset: [string, string][] = [a.sam, a.twinB, a.ida, a.mira, a.twinA].map((id) => ['filter', `id:${id}`]);
    expect(await listedIds('/authors', [...subset, ['sort', 'name']])).toEqual([
      a.ida,
      a.twinA,
      a.twinB,
      a.mira,
      a.sam,
    ]);
    expect(await listedIds('/authors', [...subset, ['sort', '-name']])).toEqual([
      a.sam,
      a.mira,
      a.twinA,
      a.twinB,
      a.ida,
    ]);
    expect(await listedIds('/authors', [...subset, ['sort', 'name,-id']])).toEqual([
      a.ida,
      a.twinB,
      a.twinA,
      a.mira,
      a.sam,
    ]);
  });

  it('/authors by -id is every author in descending id order', async () => {
    expect(await listedIds('/authors', [['sort', '-id']])).toEqual([...allAuthors].reverse());
  });
});

describe('filter', () => {
  it('matches exactly: a whole title, not a part of it nor another case', async () => {
    expect(await listedIds('/books', [['filter', 'title:The Hobbit']])).toEqual([b.hobbit]);
    expect(await listedIds('/books', [['filter', 'title:Hobbit']])).toEqual([]);
    expect(await listedIds('/books', [['filter', 'title:the hobbit']])).toEqual([]);
    expect(await listedIds('/books', [['filter', 'title:Alpha']])).toEqual([b.alpha2000, b.alpha1980]);
  });

  it('on integer fields: publication_year, author_id and id', async () => {
    expect(await listedIds('/books', [['filter', 'publication_year:2000']])).toEqual([b.alpha2000, b.bravo, b.echo]);
    expect(await listedIds('/books', [['filter', `author_id:${a.colon}`]])).toEqual([b.redwall, b.mossflower]);
    expect(await listedIds('/books', [['filter', `id:${b.saturn}`]])).toEqual([b.saturn]);
  });

  it('the same field repeated means either value', async () => {
    expect(
      await listedIds('/books', [
        ['filter', 'publication_year:1937'],
        ['filter', 'publication_year:1954'],
        ['filter', 'publication_year:1995'],
      ]),
    ).toEqual([b.hobbit, b.lotr, b.saturn]);
    expect(
      await listedIds('/books', [
        ['filter', 'title:Echo'],
        ['filter', 'title:The Hobbit'],
      ]),
    ).toEqual([b.echo, b.hobbit]);
  });

  it('different fields must all match', async () => {
    expect(
      await listedIds('/books', [
        ['filter', `author_id:${a.sam}`],
        ['filter', 'publication_year:1990'],
      ]),
    ).toEqual([b.delta, b.charlie]);
    expect(
      await listedIds('/books', [
        ['filter', `author_id:${a.sam}`],
        ['filter', 'publication_year:1990'],
        ['filter', 'title:Charlie'],
      ]),
    ).toEqual([b.charlie]);
    expect(
      await listedIds('/books', [
        ['filter', `author_id:${a.tolkien}`],
        ['filter', 'publication_year:1990'],
      ]),
    ).toEqual([]);
    // Either year, and the author.
    expect(
      await listedIds('/books', [
        ['filter', 'publication_year:1990'],
        ['filter', 'publication_year:1937'],
        ['filter', `author_id:${a.tolkien}`],
      ]),
    ).toEqual([b.hobbit]);
  });

  it('splits at the first colon: the value keeps its own colons', async () => {
    expect(await listedIds('/books', [['filter', 'title:Redwall: Mossflower']])).toEqual([b.mossflower]);
    expect(await listedIds('/books', [['filter', 'title:Redwall']])).toEqual([b.redwall]);
  });

  it('within an author\u2019s books it narrows that author\u2019s books only', async () => {
    expect(await listedIds(`/authors/${a.sam}/books`, [['filter', 'title:Alpha']])).toEqual([b.alpha2000, b.alpha1980]);
    expect(await listedIds(`/authors/${a.tolkien}/books`, [['filter', 'title:Alpha']])).toEqual([]);
    expect(await listedIds(`/authors/${a.sam}/books`, [['filter', `author_id:${a.tolkien}`]])).toEqual([]);
  });

  it('on /authors by name (exact, duplicates included) and by id', async () => {
    expect(await listedIds('/authors', [['filter', 'name:Kim Twin']])).toEqual([a.twinA, a.twinB]);
    expect(await listedIds('/authors', [['filter', 'name:Kim']])).toEqual([]);
    expect(await listedIds('/authors', [['filter', 'name:Gabriel García Márquez']])).toEqual([a.garcia]);
    expect(
      await listedIds('/authors', [
        ['filter', `id:${a.mira}`],
        ['filter', `id:${a.ida}`],
      ]),
    ).toEqual([a.ida, a.mira]);
    expect(
      await listedIds('/authors', [
        ['filter', `id:${a.mira}`],
        ['filter', 'name:Ida Dragon'],
      ]),
    ).toEqual([]);
  });
});

describe('author (the words of the author\u2019s name, as a person types them)', () => {
  it('is case-insensitive; every word is a word of the name, the last one may be unfinished', async () => {
    expect(await listedIds('/books', [['author', 'TOLKIEN']])).toEqual([b.hobbit, b.lotr]);
    expect(await listedIds('/books', [['author', 'tolk']])).toEqual([b.hobbit, b.lotr]);
    expect(await listedIds('/books', [['author', 'r. r. tol']])).toEqual([b.hobbit, b.lotr]);
    expect(await listedIds('/books', [['author', 'sebald']])).toEqual([b.saturn, b.ringsAndLord]);
    // Inside a word (beyond a typo's reach), or an unfinished word before the last, matches nothing.
    expect(await listedIds('/books', [['author', 'lkien']])).toEqual([]);
    expect(await listedIds('/books', [['author', 'tol r']])).toEqual([]);
  });

  it('matches non-ASCII names: "garcía" finds Gabriel García Márquez', async () => {
    expect(await listedIds('/books', [['author', 'garcía']])).toEqual([b.solitude, b.cholera]);
    expect(await listedIds('/books', [['author', 'garcía márq']])).toEqual([b.solitude, b.cholera]);
  });

  it('punctuation separates words and matches nothing itself: % and _ are no wildcards', async () => {
    expect(await listedIds('/books', [['author', '%']])).toEqual([]);
    expect(await listedIds('/books', [['author', '_']])).toEqual([]);
    expect(await listedIds('/books', [['author', '100%']])).toEqual([b.percentBook, b.percentDecoyBook]);
    expect(await listedIds('/books', [['author', '100% pure']])).toEqual([b.percentBook]);
    expect(await listedIds('/books', [['author', '1%0']])).toEqual([]);
    expect(await listedIds('/books', [['author', 'under_sc']])).toEqual([b.underscoreBook]);
    expect(await listedIds('/books', [['author', 'kirk under']])).toEqual([b.underscoreBook, b.underscoreDecoyBook]);
  });

  it('combines with filter and sort', async () => {
    expect(
      await listedIds('/books', [
        ['author', 'sorter'],
        ['filter', 'publication_year:2000'],
        ['sort', '-title'],
      ]),
    ).toEqual([b.echo, b.bravo, b.alpha2000]);
  });

  it('on an author\u2019s books: all of them when the name matches, none otherwise', async () => {
    expect(await listedIds(`/authors/${a.garcia}/books`, [['author', 'garcía']])).toEqual([b.solitude, b.cholera]);
    expect(await listedIds(`/authors/${a.garcia}/books`, [['author', 'tolkien']])).toEqual([]);
  });
});

describe('query (full-text)', () => {
  it('stems: "hobbits" finds The Hobbit, "ring" finds every title with Rings', async () => {
    expect(await listedIds('/books', [['query', 'hobbits']])).toEqual([b.hobbit]);
    expect(
      await listedIds('/books', [
        ['query', 'ring'],
        ['sort', 'id'],
      ]),
    ).toEqual([b.lotr, b.saturn, b.ringsAndLord]);
  });

  it('takes words from the title and the author\u2019s name together', async () => {
    expect(await listedIds('/books', [['query', 'tolkien hobbit']])).toEqual([b.hobbit]);
    expect(await listedIds('/books', [['query', 'sebald saturn']])).toEqual([b.saturn]);
    expect(await listedIds('/books', [['query', 'tolkien saturn']])).toEqual([]);
    expect(
      await listedIds('/books', [
        ['query', 'tolkien'],
        ['sort', 'id'],
      ]),
    ).toEqual([b.hobbit, b.lotr]);
  });

  it('counts an author-name match like a title match when unsorted; equal ranks in id order', async () => {
    expect(b.quietHarbor).toBeLessThan(b.dragonSeason);
    expect(await listedIds('/books', [['query', 'dragon']])).toEqual([b.quietHarbor, b.dragonSeason]);
  });

  it('an explicit sort overrides the ranking', async () => {
    expect(
      await listedIds('/books', [
        ['query', 'dragon'],
        ['sort', 'id'],
      ]),
    ).toEqual([b.quietHarbor, b.dragonSeason]);
    expect(
      await listedIds('/books', [
        ['query', 'dragon'],
        ['sort', '-title'],
      ]),
    ).toEqual([b.quietHarbor, b.dragonSeason]);
  });

  it('understands websearch syntax: a quoted phrase, -word, or', async () => {
    expect(
      await listedIds('/books', [
        ['query', 'lord rings'],
        ['sort', 'id'],
      ]),
    ).toEqual([b.lotr, b.ringsAndLord]);
    expect(await listedIds('/books', [['query', '"lord of the rings"']])).toEqual([b.lotr]);
    expect(await listedIds('/books', [['query', 'rings -lord']])).toEqual([b.saturn]);
    expect(
      await listedIds('/books', [
        ['query', 'rings -tolkien'],
        ['sort', 'id'],
      ]),
    ).toEqual([b.saturn, b.ringsAndLord]);
    expect(
      await listedIds('/books', [
        ['query', 'hobbit or cholera'],
        ['sort', 'id'],
      ]),
    ).toEqual([b.hobbit, b.cholera]);
  });

  it('combines with filter, author and paging', async () => {
    expect(
      await listedIds('/books', [
        ['query', 'ring'],
        ['filter', `author_id:${a.sebald}`],
        ['sort', 'id'],
      ]),
    ).toEqual([b.saturn, b.ringsAndLord]);
    expect(
      await listedIds('/books', [
        ['query', 'ring'],
        ['author', 'tolkien'],
      ]),
    ).toEqual([b.lotr]);
    const { page } = await getPage(
      `/books${qs([
        ['query', 'ring'],
        ['sort', 'id'],
        ['page', 2],
        ['per_page', 2],
      ])}`,
    );
    expect(ids(page.data)).toEqual([b.ringsAndLord]);
    expect(page.meta).toEqual({ page: 2, per_page: 2, total_pages: 2, total_items: 3 });
  });

  it('within an author\u2019s books', async () => {
    expect(await listedIds(`/authors/${a.tolkien}/books`, [['query', 'rings']])).toEqual([b.lotr]);
    expect(await listedIds(`/authors/${a.tolkien}/books`, [['query', 'saturn']])).toEqual([]);
  });

  it('on /authors searches the names', async () => {
    expect(await listedIds('/authors', [['query', 'tolkien']])).toEqual([a.tolkien]);
    expect(await listedIds('/authors', [['query', 'márquez gabriel']])).toEqual([a.garcia]);
    expect(
      await listedIds('/authors', [
        ['query', 'kim twin'],
        ['sort', 'id'],
      ]),
    ).toEqual([a.twinA, a.twinB]);
    expect(await listedIds('/authors', [['query', 'kim -twin']])).toEqual([]);
    expect(await listedIds('/authors', [['query', 'hobbit']])).toEqual([]);
  });

  it('on /authors matches words as a person types a name: the last one may be unfinished', async () => {
    expect(await listedIds('/authors', [['query', 'tolk']])).toEqual([a.tolkien]);
    expect(await listedIds('/authors', [['query', 'gabriel márq']])).toEqual([a.garcia]);
    expect(await listedIds('/authors', [['query', 'gabr márquez']])).toEqual([]);
    expect(await listedIds('/authors', [['query', 'lkien']])).toEqual([]);
  });
});

describe('fields', () => {
  it('bare array of books: only the named fields, with the item links kept', async () => {
    const { items } = await getArray(`/authors/${a.tolkien}/books?fields=title`);
    expect(items).toEqual([
      {
        title: 'The Hobbit',
        links: [
          { rel: 'self', href: `/books/${b.hobbit}` },
          { rel: 'author', href: `/authors/${a.tolkien}`, title: 'J. R. R. Tolkien' },
          { rel: 'collection', href: '/books?page=1&per_page=20' },
        ],
      },
      {
        title: 'The Lord of the Rings',
        links: [
          { rel: 'self', href: `/books/${b.lotr}` },
          { rel: 'author', href: `/authors/${a.tolkien}`, title: 'J. R. R. Tolkien' },
          { rel: 'collection', href: '/books?page=1&per_page=20' },
        ],
      },
    ]);
  });

  it('page of books: only the named fields in every item, each keeping its self link', async () => {
    const { page } = await getPage(
      `/books${qs([
        ['filter', `author_id:${a.sam}`],
        ['fields', 'id,publication_year'],
        ['page', 1],
      ])}`,
    );
    expect(page.data).toHaveLength(6);
    expect(page.data.map((item) => [item.id, item.publication_year])).toEqual([
      [b.delta, 1990],
      [b.alpha2000, 2000],
      [b.charlie, 1990],
      [b.bravo, 2000],
      [b.alpha1980, 1980],
      [b.echo, 2000],
    ]);
    for (const item of page.data) {
      expect(Object.keys(item).sort()).toEqual(['id', 'links', 'publication_year']);
      expect(item.links.find((l) => l.rel === 'self')?.href).toBe(`/books/${item.id}`);
    }
  });

  it('a field not selected can still be sorted and filtered on', async () => {
    const { items } = await getArray(
      `/authors/${a.sam}/books${qs([
        ['fields', 'title'],
        ['sort', '-publication_year,title'],
        ['filter', 'publication_year:2000'],
      ])}`,
    );
    expect(items.map((item) => item.title)).toEqual(['Alpha', 'Bravo', 'Echo']);
    expect(items.map((item) => item.links[0])).toEqual([
      { rel: 'self', href: `/books/${b.alpha2000}` },
      { rel: 'self', href: `/books/${b.bravo}` },
      { rel: 'self', href: `/books/${b.echo}` },
    ]);
  });

  it('authors in both forms: fields=name keeps the self link; fields=id,name is the whole item', async () => {
    const filter: [string, string][] = [
      ['filter', `id:${a.tolkien}`],
      ['filter', `id:${a.sebald}`],
    ];
    const { items } = await getArray(`/authors${qs([...filter, ['fields', 'name']])}`);
    expect(items.map((item) => Object.keys(item).sort())).toEqual([
      ['links', 'name'],
      ['links', 'name'],
    ]);
    expect(items.map((item) => [item.name, item.links[0]])).toEqual([
      ['J. R. R. Tolkien', { rel: 'self', href: `/authors/${a.tolkien}` }],
      ['W. G. Sebald', { rel: 'self', href: `/authors/${a.sebald}` }],
    ]);
    const { page } = await getPage(`/authors${qs([...filter, ['fields', 'name'], ['per_page', 1], ['page', 2]])}`);
    expect(page.data).toEqual([
      {
        name: 'W. G. Sebald',
        links: [
          { rel: 'self', href: `/authors/${a.sebald}` },
          expect.objectContaining({ rel: 'books', href: `/authors/${a.sebald}/books?page=1&per_page=20` }),
          { rel: 'collection', href: '/authors?page=1&per_page=20' },
        ],
      },
    ]);
    expect(page.meta).toEqual({ page: 2, per_page: 1, total_pages: 2, total_items: 2 });
    const whole = await getArray(`/authors${qs([...filter, ['fields', 'id,name']])}`);
    expect(whole.items.map((item) => Object.keys(item).sort())).toEqual([
      ['id', 'links', 'name'],
      ['id', 'links', 'name'],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------

interface InvalidTarget {
  label: string;
  path: () => string;
  /** A sortable/selectable string field of the items. */
  text: string;
  books: boolean;
}

const invalidTargets: InvalidTarget[] = [
  { label: '/books', path: () => '/books', text: 'title', books: true },
  { label: '/authors', path: () => '/authors', text: 'name', books: false },
  { label: '/authors/{id}/books', path: () => `/authors/${a.paula}/books`, text: 'title', books: true },
];

/** [query string, the parameter the 400 must name]. */
function invalidForms(target: InvalidTarget): [string, string][] {
  const f = target.text;
  const common: [string, string][] = [
    ['foo=1', 'foo'],
    ['Page=1', 'Page'],
    ['page=1&page=2', 'page'],
    ['per_page=5&per_page=10', 'per_page'],
    [`sort=id&sort=${f}`, 'sort'],
    ['query=a&query=b', 'query'],
    [`fields=id&fields=${f}`, 'fields'],
    ['query=', 'query'],
    ['query=%20%20', 'query'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=', 'page'],
    ['page=2147483648', 'page'],
    ['page=0&per_page=10', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['per_page=-10', 'per_page'],
    ['per_page=1.5', 'per_page'],
    ['per_page=ten', 'per_page'],
    ['per_page=', 'per_page'],
    ['page=2&per_page=101', 'per_page'],
    ['sort=', 'sort'],
    [`sort=${f},`, 'sort'],
    [`sort=,${f}`, 'sort'],
    ['sort=-', 'sort'],
    ['sort=nope', 'sort'],
    [`sort=${f},-${f}`, 'sort'],
    ['sort=id,id', 'sort'],
    ['filter=id', 'filter'],
    ['filter=id:', 'filter'],
    ['filter=nope:1', 'filter'],
    ['filter=:1', 'filter'],
    ['filter=id:abc', 'filter'],
    ['filter=id:1.5', 'filter'],
    ['filter=id:99999999999', 'filter'],
    [`filter=id:1&filter=${f}`, 'filter'],
    ['fields=', 'fields'],
    ['fields=nope', 'fields'],
    ['fields=id,', 'fields'],
    [`fields=id,,${f}`, 'fields'],
  ];
  const specific: [string, string][] = target.books
    ? [
        ['author=a&author=b', 'author'],
        ['author=', 'author'],
        ['author=%20', 'author'],
        ['filter=publication_year:abc', 'filter'],
        ['filter=publication_year:1937.0', 'filter'],
        ['filter=author_id:x', 'filter'],
        ['filter=name:x', 'filter'],
        ['sort=name', 'sort'],
        ['sort=-publication_year,title,publication_year', 'sort'],
        ['fields=name', 'fields'],
      ]
    : [
        ['author=x', 'author'],
        ['filter=title:x', 'filter'],
        ['filter=publication_year:1937', 'filter'],
        ['sort=title', 'sort'],
        ['sort=publication_year', 'sort'],
        ['fields=title', 'fields'],
      ];
  return [...common, ...specific];
}

describe.each(invalidTargets)('invalid listing parameters on $label', (target) => {
  it.each(invalidForms(target))('?%s → 400 naming %s in message and details', async (query, parameter) => {
    await expect400(`${target.path()}?${query}`, parameter);
  });
});
