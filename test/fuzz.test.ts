/**
 * A seeded, reproducible fuzz of every route the OpenAPI document lists: at least 10,000 hostile or clumsy
 * requests — odd methods, ids and query values, wrong media types, broken and oversized bodies, bogus
 * credentials and preconditions — from anonymous callers, a member and a librarian. None may answer 5xx,
 * and every JSON error body must have the seed's shape (or, from the MCP endpoint, JSON-RPC's).
 * `FUZZ_SEED=n` replays a run; a failure names the request that caused it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, addUser, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = 10_000;

/** mulberry32: a small PRNG, so that the same seed replays the same requests. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, chance: (p: number) => next() < p };
}

type Rng = ReturnType<typeof random>;

const HOSTILE_TEXT = [
  '',
  ' ',
  'a',
  'x'.repeat(501),
  'x'.repeat(20_000),
  '\u0000',
  '%00',
  '%',
  '%zz',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; drop table books; --",
  '\u200b',
  'Zoe\u0308',
  // A letter where words are split that folds to an apostrophe: a search word with nothing left to quote.
  '\u02bc',
  '%ED%A0%80',
  '%C3%28',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '__proto__',
  'constructor',
  '{"a":1}',
  '-1',
  '0',
  '1',
  '2147483647',
  '2147483648',
  '-2147483649',
  '1e9',
  '1.5',
  'NaN',
  'null',
  'true',
  ',,,',
  ':',
  'title:',
  ':value',
  'publication_year:1900',
  'available:maybe',
  '-title,title',
  'title,-publication_year',
  'id,-id',
];

const IDS = [
  '1',
  '2',
  '3',
  '0',
  '-1',
  '999999',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1.0',
  '1e3',
  '%20',
  '01',
];
const PARAMS = ['page', 'per_page', 'sort', 'query', 'author', 'filter', 'fields', 'cursor', 'unknown', 'api_version'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'REPORT'];
const ACCEPTS = [
  undefined,
  'application/json',
  '*/*',
  'application/hal+json',
  'application/prs.hal-forms+json',
  'text/html',
  'text/plain',
  'image/png',
  'application/json;q=0',
  ';;;',
  'text/*, application/*;q=0.1',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  '',
];
const FIELD_NAMES = [
  'title',
  'publication_year',
  'author_id',
  'name',
  'role',
  'borrower_id',
  'status',
  'token',
  '__proto__',
  'id',
  'version',
];

function hostileValue(rng: Rng): unknown {
  return rng.pick<unknown>([
    rng.pick(HOSTILE_TEXT),
    Math.floor(rng.next() * 4000) - 2000,
    2 ** 31,
    -(2 ** 53),
    1.5,
    Number.MAX_SAFE_INTEGER,
    null,
    true,
    false,
    [],
    [1, 2],
    {},
    { nested: { deeper: [1, { x: 'y' }] } },
    'returned',
    'librarian',
    'active',
  ]);
}

function body(rng: Rng, contentType: string): string | undefined {
  const kind = rng.next();
  if (kind < 0.1) return undefined;
  if (kind < 0.2)
    return rng.pick(['{', '[', 'null', '"text"', '42', '{"title":', '\u0000', '{}', '[]', 'x'.repeat(20_000)]);
  if (kind < 0.25) return `{${'"a":{'.repeat(200)}1${'}'.repeat(201)}`;
  const fields: Record<string, unknown> = {};
  const count = Math.floor(rng.next() * 4);
  for (let i = 0; i < count; i++) fields[rng.pick(FIELD_NAMES)] = hostileValue(rng);
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
    if (rng.chance(0.3)) form.append('_method', rng.pick(['PUT', 'PATCH', 'DELETE', 'GET', 'CONNECT', '']));
    return form.toString();
  }
  return JSON.stringify(fields);
}

function path(rng: Rng, template: string): string {
  if (rng.chance(0.05))
    return rng.pick([
      '/nowhere',
      '//books',
      '/books/',
      '/books/1/2/3',
      '/%2e%2e/',
      '/books%00',
      `/${'a'.repeat(3000)}`,
    ]);
  let result = template.replace(/\{[^}]+\}/g, () => rng.pick(IDS));
  if (rng.chance(0.6)) {
    const query: string[] = [];
    const count = 1 + Math.floor(rng.next() * 3);
    for (let i = 0; i < count; i++) {
      const value = rng.chance(0.5) ? rng.pick(HOSTILE_TEXT) : String(Math.floor(rng.next() * 300) - 50);
      query.push(`${rng.pick(PARAMS)}=${rng.chance(0.7) ? encodeURIComponent(value) : value.replace(/[#\s]/g, '')}`);
    }
    result += `?${query.join('&')}`;
  }
  return result;
}

let t: TestCatalogue;
let templates: string[];
/** The methods each path template takes, as the OpenAPI document says. */
let allowed: Record<string, string[]>;
let callers: (string | undefined)[];

beforeAll(async () => {
  t = await openTestCatalogue();
  const author = await addAuthor(t, 'Fuzz Author');
  for (let i = 0; i < 3; i++) await addBook(t, `Fuzz Book ${i}`, 1990 + i, author);
  const member = await addUser(t, 'Fuzz Member');
  callers = [undefined, member.token, undefined, 'cat_not-a-real-token', 'x'];
  const openapi = (await (await t.request('/openapi.json')).json()) as { paths: Record<string, object> };
  templates = Object.keys(openapi.paths);
  allowed = Object.fromEntries(
    Object.entries(openapi.paths).map(([template, item]) => [
      template,
      Object.keys(item)
        .filter((key) => /^(get|post|put|patch|delete)$/.test(key))
        .map((key) => key.toUpperCase()),
    ]),
  );
}, 120_000);
afterAll(() => t?.close());

describe(`fuzz (seed ${SEED}, ${REQUESTS} requests)`, () => {
  it('no request answers 5xx, and every JSON error has the seed’s error shape', async () => {
    expect(templates.length).toBeGreaterThan(10);
    const rng = random(SEED);
    const statuses = new Map<number, number>();
    for (let n = 0; n < REQUESTS; n++) {
      const template = rng.pick(templates);
      // Mostly a method the route takes, so that requests reach its validation and its queries.
      const method = rng.chance(0.7) ? rng.pick(allowed[template] ?? METHODS) : rng.pick(METHODS);
      const target = path(rng, template);
      const headers: Record<string, string> = {};
      const accept = rng.chance(0.6) ? undefined : rng.pick(ACCEPTS);
      if (accept !== undefined) headers.Accept = accept;
      const contentType = rng.pick(CONTENT_TYPES);
      if (contentType) headers['Content-Type'] = contentType;
      const caller = rng.pick(callers);
      if (rng.chance(0.05))
        headers.Authorization = rng.pick(['Bearer', 'Basic abc', 'Bearer  ', `Bearer ${'x'.repeat(600)}`]);
      if (rng.chance(0.05)) headers['If-Match'] = rng.pick(['*', '"1-abc"', 'W/"1"', 'garbage', '"', '""']);
      if (rng.chance(0.05)) headers.Cookie = rng.pick(['catalogue_session=bogus', 'catalogue_session=', 'a=b; c']);
      if (rng.chance(0.05)) headers['Sec-Fetch-Site'] = rng.pick(['cross-site', 'same-origin', 'none', 'weird']);
      const sendsBody = !['GET', 'HEAD'].includes(method);
      const init: RequestInit = { method, headers, ...(sendsBody && { body: body(rng, contentType) }) };
      const client = caller === undefined ? t.anonymous : caller === 'x' ? t : t.as(caller);
      const description = `#${n} ${method} ${target.slice(0, 200)} ${JSON.stringify(headers).slice(0, 300)}`;
      const response = await client.request(target, init);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const text = await response.text();
      expect(response.status, description).toBeLessThan(500);
      const type = response.headers.get('content-type') ?? '';
      if (response.status >= 400 && type.startsWith('application/json') && method !== 'HEAD') {
        const parsed = JSON.parse(text);
        // The MCP endpoint's own refusals are the protocol's: JSON-RPC errors (the catalogue's own, such as a
        // 401 or 413, keep the seed's shape).
        if (target.startsWith('/mcp') && 'jsonrpc' in parsed) {
          expect(parsed, description).toEqual({
            jsonrpc: '2.0',
            id: null,
            error: { code: expect.any(Number), message: expect.any(String) },
          });
          continue;
        }
        expect(parsed, description).toEqual({
          error: {
            code: response.status,
            message: expect.any(String),
            ...(parsed.error?.details !== undefined && { details: expect.any(Object) }),
          },
        });
      }
    }
    console.info('statuses:', Object.fromEntries([...statuses].sort(([a], [b]) => a - b)));
  }, 600_000);
});
