/**
 * Suggestions as a person types: the root's templated `suggestions` link answers, for the text so far, up to
 * ten authors (first) and books, each linking to its author or book. Accents and case are folded, the last
 * word is the start of a word with a typo forgiven, earlier words are corrected as in a search; nonsense
 * suggests nothing. Public where reads are, refused where they are not, and spent from the search quota.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse } from 'uri-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_PARAM_LENGTH } from '../src/domain/limits.js';
import { addAuthor, addBook, json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type AuthorDocument,
  type BookDocument,
  type HalDocument,
  halHref,
  linkOf,
  type OpenApiDocument,
  type ProfileDocument,
  present,
  type RootDocument,
  type SuggestionsDocument,
} from './support/documents.js';
import { expectError } from './support/errors.js';

interface Suggestion {
  type: 'author' | 'book';
  label: string;
  links: { rel: string; href: string; title?: string }[];
}

let t: TestCatalogue;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await openTestCatalogue();
  ids.lagerlof = await addAuthor(t, 'Selma Lagerlöf');
  ids.hamsun = await addAuthor(t, 'Knut Hamsun');
  ids.undset = await addAuthor(t, 'Sigrid Undset');
  ids.gosta = await addBook(t, 'Gösta Berlings saga', 1891, ids.lagerlof);
  ids.nils = await addBook(t, 'The Wonderful Adventures of Nils', 1906, ids.lagerlof);
  ids.hunger = await addBook(t, 'Hunger', 1890, ids.hamsun);
  ids.kristin = await addBook(t, 'Kristin Lavransdatter', 1920, ids.undset);
  // More than ten matches of one word: seven authors and twelve books.
  for (let i = 1; i <= 7; i++) ids[`lighthouse-author-${i}`] = await addAuthor(t, `Ines Lighthouse ${i}`);
  for (let i = 1; i <= 12; i++) await addBook(t, `Lighthouse Keeper ${i}`, 1950 + i, ids.hamsun as number);
});
afterAll(() => t?.close());

/** The suggestions link of the root, expanded for `text`, as a client builds it. */
async function suggestionsHref(text: string, client = t.anonymous): Promise<string> {
  const root = await json<RootDocument>(await client.request('/'));
  const link = linkOf(root, 'suggestions');
  expect(link).toMatchObject({ href: '/suggestions{?query}', templated: true });
  return parse(link.href).expand({ query: text });
}

async function suggest(text: string): Promise<Suggestion[]> {
  const href = await suggestionsHref(text);
  const response = await t.anonymous.request(href);
  expect(response.status).toBe(200);
  const body = await json<SuggestionsDocument>(response);
  expect(body.query).toBe(text);
  expect(linkHref(body, 'self')).toBe(href);
  return body.data;
}

const labels = (suggestions: Suggestion[]) => suggestions.map((s) => s.label);

describe('suggestions for a text typed so far', () => {
  it('suggest the author whose name a prefix begins, with a link to that author', async () => {
    const [first] = await suggest('lager');
    expect(first).toEqual({
      type: 'author',
      label: 'Selma Lagerlöf',
      links: [{ rel: 'author', href: `/authors/${ids.lagerlof}`, title: 'Selma Lagerlöf' }],
    });
    const author = await json<AuthorDocument>(await t.anonymous.request(first?.links[0]?.href as string));
    expect(author.name).toBe('Selma Lagerlöf');
  });

  it('suggest a book by its title, with a link to that book, accents and case folded', async () => {
    const suggestions = await suggest('GOSTA berl');
    expect(suggestions).toEqual([
      {
        type: 'book',
        label: 'Gösta Berlings saga',
        links: [{ rel: 'book', href: `/books/${ids.gosta}`, title: 'Gösta Berlings saga' }],
      },
    ]);
    const book = await json<BookDocument>(await t.anonymous.request(suggestions[0]?.links[0]?.href as string));
    expect(book.title).toBe('Gösta Berlings saga');
    expect(labels(await suggest('lagerlof'))).toContain('Selma Lagerlöf');
  });

  it('forgive a typo in the last word from its fourth letter: a letter wrong, missing, extra or swapped', async () => {
    expect(labels(await suggest('hamz'))).toContain('Knut Hamsun');
    expect(labels(await suggest('hamsn'))).toContain('Knut Hamsun');
    expect(labels(await suggest('undste'))).toContain('Sigrid Undset');
    expect(labels(await suggest('kirstin'))).toContain('Kristin Lavransdatter');
    // Shorter than four letters, a prefix is taken as typed.
    expect(labels(await suggest('hma'))).not.toContain('Knut Hamsun');
  });

  it('correct earlier words as a search does, and put the matches of the words as typed first', async () => {
    expect(labels(await suggest('kristen lavr'))).toEqual(['Kristin Lavransdatter']);
    expect(labels(await suggest('hunge'))[0]).toBe('Hunger');
  });

  it('answer at most ten: up to five authors first, then books', async () => {
    const suggestions = await suggest('lighth');
    expect(suggestions).toHaveLength(10);
    expect(suggestions.map((s) => s.type)).toEqual([...Array(5).fill('author'), ...Array(5).fill('book')]);
    for (const suggestion of suggestions) {
      expect(suggestion.links).toHaveLength(1);
      expect(suggestion.links[0]).toMatchObject({ rel: suggestion.type, title: suggestion.label });
    }
    // Fewer authors: books take the rest.
    const books = await suggest('keeper');
    expect(books).toHaveLength(10);
    expect(books.every((s) => s.type === 'book')).toBe(true);
  });

  it('suggest nothing for nonsense', async () => {
    expect(await suggest('qxzvwk')).toEqual([]);
    expect(await suggest('!?')).toEqual([]);
  });

  it('answer every format: HAL, HAL-FORMS, HTML and an MCP agent', async () => {
    const href = await suggestionsHref('hamsu');
    for (const accept of ['application/hal+json', 'application/prs.hal-forms+json']) {
      const hal = await json<HalDocument>(await t.anonymous.request(href, { headers: { Accept: accept } }));
      expect(halHref(hal, 'self')).toBe(href);
      expect(hal._embedded?.item[0]).toMatchObject({
        type: 'author',
        label: 'Knut Hamsun',
        _links: { author: { href: `/authors/${ids.hamsun}`, title: 'Knut Hamsun' } },
      });
    }
    const html = await (await t.anonymous.request(href, { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain(`<a rel="author" href="/authors/${ids.hamsun}">Knut Hamsun</a>`);

    const client = new Client({ name: 'suggestions-test', version: '1.0.0' });
    const fetchInProcess = (url: string | URL, init?: RequestInit) => {
      const at = new URL(url);
      return t.anonymous.request(at.pathname + at.search, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: fetchInProcess }));
    try {
      const result = await client.callTool({
        name: 'follow',
        arguments: { url: '/', rel: 'suggestions', values: { query: 'hamsu' } },
      });
      const document = result.structuredContent as { items: { href: string; label: string }[] };
      expect(document.items[0]).toMatchObject({ href: `/authors/${ids.hamsun}`, label: 'Knut Hamsun' });
    } finally {
      await client.close();
    }
  });
});

describe('suggestions, described', () => {
  it('in the profile (the rel and its links) and in the OpenAPI document (the required query)', async () => {
    const profile = await json<ProfileDocument>(await t.anonymous.request('/profile'));
    expect(profile.vocabulary.rels.suggestions?.means).toMatch(/text a person has typed so far/);
    const openapi = await json<OpenApiDocument>(await t.anonymous.request('/openapi.json'));
    const operation = present(openapi.paths['/suggestions']?.get, 'GET /suggestions');
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: 'query',
        in: 'query',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_PARAM_LENGTH },
      }),
    ]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
  });
});

describe('what suggestions refuse', () => {
  it('a missing, blank, repeated or too long query, and unknown parameters: 400 naming the parameter', async () => {
    const refusals: [string, string][] = [
      ['/suggestions', 'query'],
      ['/suggestions?query=', 'query'],
      ['/suggestions?query=%20%20', 'query'],
      ['/suggestions?query=a&query=b', 'query'],
      [`/suggestions?query=${'a'.repeat(MAX_QUERY_PARAM_LENGTH + 1)}`, 'query'],
      [`/suggestions?query=${Array(17).fill('w').join('%20')}`, 'query'],
      ['/suggestions?query=hams&page=2', 'page'],
    ];
    for (const [path, parameter] of refusals) {
      await expectError(await t.anonymous.request(path), 400, { details: [parameter], what: path });
    }
  });

  it('anonymous callers of a closed catalogue: no link, and 401 in the error shape; signed in, suggestions', async () => {
    const closed = await openTestCatalogue({ access: { publicReads: false } });
    try {
      const root = await json<RootDocument>(await closed.anonymous.request('/'));
      expect(linkHref(root, 'suggestions')).toBeUndefined();
      await expectError(await closed.anonymous.request('/suggestions?query=any'), 401);
      const signedIn = await closed.request(await suggestionsHref('any', closed));
      expect(signedIn.status).toBe(200);
      expect((await json<SuggestionsDocument>(signedIn)).data).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it('more suggestions than the search quota: spent like searches, then 429', async () => {
    const limited = await openTestCatalogue({
      rateLimits: {
        search: { limit: 2, windowSeconds: 60 },
        stream: { limit: 100, windowSeconds: 60 },
        write: { limit: 100, windowSeconds: 60 },
      },
    });
    try {
      const first = await limited.anonymous.request('/suggestions?query=a');
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-policy')).toBe('"search";q=2;w=60');
      expect(first.headers.get('ratelimit')).toMatch(/^"search";r=1;t=\d+$/);
      // A search spends from the same quota.
      expect((await limited.anonymous.request('/books?query=a')).status).toBe(200);
      const refused = await limited.anonymous.request('/suggestions?query=ab');
      await expectError(refused, 429, { message: /too many searches/ });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
