/**
 * Problem details on request (RFC 9457): every error status the service answers, once with
 * `Accept: application/problem+json` (a problem document) and once without it (the seed's error shape,
 * unchanged), from one mapping: the problem's `detail` is the seed's `message`, its `errors` the seed's
 * `details`, and the headers the status calls for come with both.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { pruneChanges } from '../src/db/queries/changes.js';
import { MAX_BODY_BYTES } from '../src/domain/limits.js';
import { problemTypes } from '../src/hypermedia/problems.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrowed } from './support/circulation.js';
import {
  type ChangesPageDocument,
  type OpenApiDocument,
  type ProblemDocument,
  type ProfileDocument,
  present,
} from './support/documents.js';

const PROBLEM = 'application/problem+json';
const SEARCHES = 2;

let t: TestCatalogue;
let author: number;
let book: number;
let member: string;
/** A change-feed cursor older than what the feed keeps. */
let pruned: string;

beforeAll(async () => {
  t = await openTestCatalogue({
    rateLimits: {
      search: { limit: SEARCHES, windowSeconds: 600 },
      stream: { limit: 1000, windowSeconds: 60 },
      write: { limit: 1000, windowSeconds: 60 },
    },
  });
  author = await addAuthor(t, 'Problem Fixture Author');
  book = await addBook(t, 'Problem Fixture Book', 2001, author);
  member = (await addUser(t, 'Problem Member')).token;
  // Lent out, so that borrowing it again is a conflict.
  await borrowed(t.as(member), book);
  const page = await json<ChangesPageDocument>(await t.request('/changes?per_page=1'));
  pruned = linkHref(page, 'next') as string;
  await t.database.db.execute(sql`update changes set at = at - interval '400 days'`);
  expect(await pruneChanges(t.database.db, { retentionDays: 30 })).toBeGreaterThan(1);
});
afterAll(() => t.close());

/** A request answered with one error status, sent with the `Accept` given (none when undefined). */
type ErrorCase = (accept: string | undefined) => Promise<Response>;

const withAccept = (accept: string | undefined, headers: Record<string, string> = {}) =>
  accept === undefined ? headers : { ...headers, Accept: accept };

const send = (client: TestClient, method: string, path: string, body: unknown, accept?: string, headers = {}) =>
  client.send(method, path, body, withAccept(accept, headers));

/** One request per status; the 406 is asked for with a type nothing produces. */
const cases: Record<number, ErrorCase> = {
  400: (accept) => send(t, 'POST', '/books', { title: '', publication_year: 'soon', author_id: author }, accept),
  401: (accept) =>
    send(t.anonymous, 'POST', '/books', { title: 'X', publication_year: 2000, author_id: author }, accept),
  403: (accept) =>
    send(t.as(member), 'POST', '/books', { title: 'X', publication_year: 2000, author_id: author }, accept),
  404: (accept) => t.request('/nothing/lives/here', { headers: withAccept(accept) }),
  405: (accept) => t.request('/books', { method: 'DELETE', headers: withAccept(accept) }),
  406: (accept) => t.request(`/books/${book}`, { headers: { Accept: accept ? `text/csv, ${accept}` : 'text/csv' } }),
  409: (accept) => send(t, 'DELETE', `/authors/${author}`, undefined, accept),
  410: (accept) => t.request(pruned, { headers: withAccept(accept) }),
  412: (accept) => send(t, 'PATCH', `/books/${book}`, { title: 'Stale' }, accept, { 'If-Match': '"9999-stale"' }),
  413: (accept) => send(t, 'POST', '/books', { title: 'x'.repeat(MAX_BODY_BYTES) }, accept),
  415: (accept) =>
    t.request('/books', {
      method: 'POST',
      headers: withAccept(accept, { 'Content-Type': 'text/plain' }),
      body: 'title=X',
    }),
  422: (accept) => send(t, 'POST', '/books', { title: 'Orphan', publication_year: 2000, author_id: 987654 }, accept),
  429: async (accept) => {
    for (;;) {
      const response = await t.request('/books?query=problem', { headers: withAccept(accept) });
      if (response.status !== 200) return response;
    }
  },
};

/** The headers a status calls for, which both shapes carry. */
const statusHeaders: Record<number, string> = {
  401: 'www-authenticate',
  405: 'allow',
  429: 'retry-after',
  503: 'retry-after',
};

interface SeedError {
  error: { code: number; message: string; details?: Record<string, string> };
}

async function expectSeedShape(response: Response, status: number): Promise<SeedError> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = await json<SeedError>(response);
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(status);
  expect(body.error.message).toEqual(expect.any(String));
  if (statusHeaders[status]) expect(response.headers.get(statusHeaders[status])).toBeTruthy();
  return body;
}

async function expectProblem(response: Response, status: number, profile = '/profile') {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe(PROBLEM);
  expect(response.headers.get('vary')).toMatch(/Accept/);
  const body = await json<ProblemDocument>(response);
  const type = problemTypes[status];
  expect(type, `a problem type for ${status}`).toBeDefined();
  expect(body).toMatchObject({
    type: `${profile}#problem-${type?.slug}`,
    title: type?.title,
    status,
    detail: expect.any(String),
    code: status,
  });
  for (const key of Object.keys(body)) expect(['type', 'title', 'status', 'detail', 'code', 'errors']).toContain(key);
  if (statusHeaders[status]) expect(response.headers.get(statusHeaders[status])).toBeTruthy();
  return body;
}

describe('every error status, in both shapes', () => {
  it.each(Object.keys(cases).map(Number))('%i', async (status) => {
    const errorCase = cases[status] as ErrorCase;
    const seed = await expectSeedShape(await errorCase(undefined), status);
    const problem = await expectProblem(await errorCase(PROBLEM), status);
    // One mapping: the same message and per-field details, written twice.
    if (status === 429) {
      expect(problem.detail).toMatch(/^too many searches: at most 2 per 600 s; try again in \d+ s$/);
    } else {
      expect(problem.detail).toBe(seed.error.message);
    }
    if (seed.error.details) {
      expect(problem.errors).toEqual(
        Object.entries(seed.error.details).map(([field, message]) => ({ field, message })),
      );
    } else {
      expect(problem.errors).toBeUndefined();
    }
  });

  it('validation errors name each field in `errors`', async () => {
    const problem = await expectProblem(await (cases[400] as ErrorCase)(PROBLEM), 400);
    expect(problem.errors?.map((e: { field: string }) => e.field).sort()).toEqual(['publication_year', 'title']);
    for (const error of present(problem.errors, 'the errors')) expect(error.message).toEqual(expect.any(String));
    const unprocessable = await expectProblem(await (cases[422] as ErrorCase)(PROBLEM), 422);
    expect(unprocessable.errors).toEqual([{ field: 'author_id', message: expect.any(String) }]);
  });

  it('500 and 503 too', async () => {
    // 503: the health check of a database that is gone. 500: a database that fails in no way it knows.
    const other = await openTestCatalogue();
    try {
      const logged: string[] = [];
      const failing = createApp({
        log: { info: () => {}, error: (message) => logged.push(message) },
        database: {
          ...other.database,
          db: new Proxy({} as Database['db'], {
            get() {
              throw new TypeError('not a database');
            },
          }),
        },
      });
      const internal = (accept?: string) => failing.request(`/authors/1`, { headers: withAccept(accept) });
      const seed = await expectSeedShape(await internal(), 500);
      expect((await expectProblem(await internal(PROBLEM), 500)).detail).toBe(seed.error.message);
      expect(JSON.stringify(seed)).not.toMatch(/not a database|TypeError/);
      expect(logged).toEqual(['unhandled error', 'unhandled error']);

      const closed = createApp({ database: { ...other.database } });
      await other.database.close();
      const health = (accept?: string) => closed.request('/health', { headers: withAccept(accept) });
      const down = await expectSeedShape(await health(), 503);
      expect((await expectProblem(await health(PROBLEM), 503)).detail).toBe(down.error.message);
    } finally {
      other.database.close = async () => {};
      await other.close();
    }
  });
});

describe('which Accept asks for problem details', () => {
  it('application/problem+json, alone or beside others, with any quality above 0', async () => {
    const accepts = [
      PROBLEM,
      `application/json, ${PROBLEM}`,
      `text/html, ${PROBLEM};q=0.5`,
      'APPLICATION/PROBLEM+JSON',
    ];
    for (const accept of accepts) await expectProblem(await (cases[404] as ErrorCase)(accept), 404);
  });

  it('anything else keeps the seed shape (or the HTML page) exactly as before', async () => {
    for (const accept of [undefined, 'application/json', '*/*', 'application/*', `application/json, ${PROBLEM};q=0`]) {
      const body = await expectSeedShape(await (cases[404] as ErrorCase)(accept), 404);
      expect(body).toEqual({ error: { code: 404, message: 'nothing lives at /nothing/lives/here' } });
    }
    const page = await (cases[404] as ErrorCase)('text/html');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('does not change how documents are negotiated: problem+json alone answers documents in JSON', async () => {
    const response = await t.request(`/books/${book}`, { headers: { Accept: PROBLEM } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const hal = await t.request(`/books/${book}`, { headers: { Accept: `application/hal+json, ${PROBLEM}` } });
    expect(hal.headers.get('content-type')).toMatch(/^application\/hal\+json/);
  });
});

describe('problem types', () => {
  it('are each described in the profile, by the fragment the type names', async () => {
    const profile = await json<ProfileDocument>(await t.request('/profile'));
    const described = profile.problems.types;
    for (const [status, type] of Object.entries(problemTypes)) {
      expect(described[`problem-${type.slug}`]).toEqual({
        type: `/profile#problem-${type.slug}`,
        status: Number(status),
        title: type.title,
        means: type.means,
      });
    }
  });

  it('are under the configured public base', async () => {
    const behind = await openTestCatalogue({ publicUrl: 'https://library.example/catalogue' });
    try {
      const response = await behind.request('/books/0', { headers: { Accept: PROBLEM } });
      await expectProblem(response, 404, 'https://library.example/catalogue/profile');
    } finally {
      await behind.close();
    }
  });

  it('are in the OpenAPI description beside the default shape', async () => {
    const doc = await json<OpenApiDocument>(await t.request('/openapi.json'));
    expect(Object.keys(present(doc.components.responses.Error404, 'Error404').content)).toEqual([
      'application/json',
      PROBLEM,
    ]);
    expect(doc.components.schemas.Problem?.required).toEqual(['type', 'title', 'status', 'detail', 'code']);
  });
});
