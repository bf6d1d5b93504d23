/**
 * One declaration per control: the route is registered from it, the renderer offers it, the handler
 * authorizes and validates with it. These check that a declaration cannot be registered somewhere it does
 * not describe, and that what the route table holds is what the documents offer.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { affordance, isAffordance } from '../src/affordances/affordance.js';
import { addBook, borrowBook, changeBook } from '../src/affordances/books.js';
import { returnLoan } from '../src/affordances/loans.js';
import { addUser } from '../src/affordances/users.js';
import { createApp } from '../src/app.js';
import type { Role } from '../src/domain/user.js';
import type { AppEnv } from '../src/http/env.js';
import { route, routesOf } from '../src/http/route.js';
import { paths } from '../src/hypermedia/uris.js';
import { controls as vocabulary } from '../src/hypermedia/vocabulary.js';
import { addAuthor, addBook as addBookOver, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { Doc } from './support/documents.js';

describe('registering a route from its affordances', () => {
  it('refuses an affordance registered at another path than it declares', () => {
    const app = new Hono<AppEnv>();
    expect(() => route(app, paths.book, { PATCH: returnLoan }, { PATCH: (c) => c.body(null, 204) })).toThrow(
      /return control is declared as PATCH \/loans\/\{id\}, but registered as PATCH \/books\/\{id\}/,
    );
  });

  it('refuses an affordance registered under another method than its name has', () => {
    const app = new Hono<AppEnv>();
    expect(() => route(app, paths.loan, { PUT: returnLoan }, { PUT: (c) => c.body(null, 204) })).toThrow(
      /declared as PATCH .* registered as PUT/,
    );
  });

  it('refuses a route registered before the frame: it would run without a caller, a format or limits', () => {
    const app = new Hono<AppEnv>();
    expect(() => route(app, paths.books, { GET: { summary: 'x' } }, { GET: (c) => c.body(null, 204) })).toThrow(
      /registered before the frame/,
    );
    // A route that needs none of it (a load balancer's probe) may come first.
    route(app, paths.health, { GET: { summary: 'x', unauthenticated: true } }, { GET: (c) => c.body(null, 204) });
  });

  it('takes the method from the vocabulary: a name always submits the same way', () => {
    const declared = affordance({
      name: 'delete',
      path: paths.book,
      summary: 'x',
      title: 'x',
      appears: 'x',
      allows: () => ({ allowed: true }),
      href: () => '/books/1',
    });
    expect(declared.method).toBe(vocabulary.delete.method);
  });
});

describe('the route table', () => {
  let t: TestCatalogue;
  beforeAll(async () => {
    t = await openTestCatalogue();
  });
  afterAll(() => t.close());

  it('holds an affordance for every method a control submits to, and each is where it says it is', () => {
    const app = createApp({ database: t.database, rateLimits: false });
    const declared = routesOf(app).flatMap((entry) =>
      Object.entries(entry.operations).flatMap(([method, operation]) =>
        isAffordance(operation) ? [{ method, path: entry.path, affordance: operation }] : [],
      ),
    );
    // Every control name of the vocabulary is declared somewhere; none is only in the vocabulary.
    expect(new Set(declared.map((d) => d.affordance.name))).toEqual(new Set(Object.keys(vocabulary)));
    for (const { method, path, affordance: each } of declared) {
      expect(each.method, `${each.name} at ${path}`).toBe(method);
      expect(each.path.text.replace(/\{\?[^}]*\}$/, ''), `${each.name} at ${path}`).toBe(path);
      expect(each.appears, `${each.name} at ${path}`).toMatch(/\w/);
    }
  });

  it('says where each control appears in the words of its declaration, in the profile and in OpenAPI', async () => {
    const app = createApp({ database: t.database, rateLimits: false });
    type Described = { appears: string; targets: Record<string, { appears: string }> };
    const profile = (await (await app.request('/profile', { headers: { Accept: 'application/json' } })).json()) as {
      vocabulary: { controls: Record<string, Described> };
    };
    const openapi = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { description: string }>>;
    };
    for (const entry of routesOf(app)) {
      for (const [method, operation] of Object.entries(entry.operations)) {
        if (!isAffordance(operation)) continue;
        const where = `${operation.name} at ${method} ${entry.path}`;
        const described = profile.vocabulary.controls[operation.name];
        expect(described?.targets[entry.path]?.appears, where).toBe(operation.appears);
        expect(described?.appears, where).toContain(`${entry.path}: ${operation.appears}`);
        expect(openapi.paths[entry.path]?.[method.toLowerCase()]?.description, where).toContain(
          `It appears ${operation.appears}.`,
        );
      }
    }
  });

  it('every control a document offers submits to a route declared with that control', async () => {
    const author = await addAuthor(t, 'Declared Author');
    await addBookOver(t, 'Declared Book', 1999, author);
    const declared = declaredRoutes();
    const seen = new Set<string>();
    for (const doc of await crawl(t, '/')) {
      for (const [name, control] of Object.entries(doc.controls ?? {})) {
        const path = new URL(control.href, 'http://catalogue.invalid').pathname;
        const match = declared.find(
          (d) => d.affordance.name === name && d.method === control.method && matches(d.path, path),
        );
        expect(match, `${name}: ${control.method} ${control.href}`).toBeDefined();
        seen.add(name);
      }
    }
    // The crawl reaches the librarian's controls on books, authors, copies, users and their own tokens.
    expect([...seen]).toEqual(expect.arrayContaining(['create', 'edit', 'delete', 'search', 'borrow']));
  });

  function declaredRoutes() {
    const app = createApp({ database: t.database, rateLimits: false });
    return routesOf(app).flatMap((entry) =>
      Object.entries(entry.operations).flatMap(([method, operation]) =>
        isAffordance(operation) ? [{ method, path: entry.path, affordance: operation }] : [],
      ),
    );
  }
});

describe('a validated body', () => {
  it('has the type its declared fields give it, required where creation requires them', () => {
    expectTypeOf(addBook.validate).returns.toEqualTypeOf<{
      title: string;
      publication_year: number;
      author_id: number;
      isbn?: string | null;
      language?: string | null;
      subjects?: string[] | null;
      publisher?: string | null;
    }>();
    expectTypeOf(changeBook.edit.validate).returns.toEqualTypeOf<{
      title?: string;
      publication_year?: number;
      author_id?: number;
      isbn?: string | null;
      language?: string | null;
      subjects?: string[] | null;
      publisher?: string | null;
    }>();
    expectTypeOf(borrowBook.validate).returns.toEqualTypeOf<{
      borrower_id?: number;
      copy_id?: number;
      branch_id?: number;
    }>();
    expectTypeOf(returnLoan.validate).returns.toEqualTypeOf<{ status: 'returned'; branch_id?: number }>();
    expectTypeOf(addUser.validate).returns.toEqualTypeOf<{
      name: string;
      role: Role;
      patron_category_id?: number;
      home_branch_id?: number;
      card_number?: string | null;
      email?: string | null;
      language?: string | null;
    }>();
  });

  it('is what was sent, once every field is checked against its declaration', () => {
    const sent = { title: 'Persuasion', publication_year: 1817, author_id: 1 };
    expect({ ...addBook.validate(sent) }).toEqual(sent);
    expect(() => addBook.validate({ ...sent, publication_year: '1817' })).toThrow(
      /publication_year must be an integer/,
    );
    expect(() => returnLoan.validate({ status: 'lost' })).toThrow(/status must be one of: returned/);
    expect({ ...changeBook.edit.validate({ title: 'Emma' }) }).toEqual({ title: 'Emma' });
  });
});

/** Whether a path is one the route template `/books/{id}` serves. */
const matches = (route: string, path: string) => new RegExp(`^${route.replace(/\{\w+\}/g, '[^/]+')}$`).test(path);

/** The JSON documents reachable from `start` by links, as the librarian reads them (bounded). */
async function crawl(t: TestCatalogue, start: string, most = 60): Promise<Doc[]> {
  const queue = [start];
  const visited = new Set<string>();
  const docs: Doc[] = [];
  while (queue.length > 0 && visited.size < most) {
    const href = queue.shift() as string;
    if (visited.has(href)) continue;
    visited.add(href);
    const response = await t.request(href);
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('application/json')) continue;
    const body = await json<unknown>(response);
    for (const doc of documentsIn(body)) {
      docs.push(doc);
      for (const link of doc.links ?? []) {
        // The change feed streams; its events are not documents with controls.
        if (!link.templated && link.href.startsWith('/') && !link.href.startsWith('/changes')) queue.push(link.href);
      }
    }
  }
  return docs;
}

/** A document and the items it embeds (a page's `data`). */
function documentsIn(body: unknown): Doc[] {
  if (Array.isArray(body)) return body.flatMap(documentsIn);
  if (!body || typeof body !== 'object') return [];
  const doc = body as Doc;
  return [...(Array.isArray(doc.links) ? [doc] : []), ...documentsIn(doc.data)];
}
