/**
 * One declaration per control: the route is registered from it, the renderer offers it, the handler
 * authorizes and validates with it. These check that a declaration cannot be registered somewhere it does
 * not describe, and that what the route table holds is what the documents offer.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affordance, isAffordance } from '../src/affordances/affordance.js';
import { returnLoan } from '../src/affordances/loans.js';
import { createApp } from '../src/app.js';
import { defaultAccessPolicy } from '../src/domain/policy.js';
import type { AppEnv } from '../src/http/env.js';
import { route, routesOf } from '../src/http/route.js';
import { paths } from '../src/hypermedia/uris.js';
import { controls as vocabulary } from '../src/hypermedia/vocabulary.js';
import { openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

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
    const app = createApp({ database: t.database, access: defaultAccessPolicy, rateLimits: false });
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
});
