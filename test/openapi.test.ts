/**
 * The OpenAPI 3.1 document: linked from the root as `service-desc`, generated from the route table, the
 * input field definitions and the listing specs. Every route the app serves is in it, with the methods
 * OPTIONS names; its request bodies are the input definitions, its query parameters the listing specs.
 */

import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { chargeInputFields, paymentInputFields, waiverInputFields } from '../src/domain/account.js';
import { authorInputFields } from '../src/domain/author.js';
import { bookInputFields } from '../src/domain/book.js';
import { closureInputFields } from '../src/domain/branch-closures.js';
import { copyInputFields, copyPlaceInputFields, withdrawInputFields } from '../src/domain/copy.js';
import { checkInInputFields, checkOutInputFields } from '../src/domain/desk.js';
import { cancelInputFields, holdInputFields, pickupInputFields } from '../src/domain/hold.js';
import type { InputField } from '../src/domain/input.js';
import { branchInputFields, listEntryInputFields } from '../src/domain/lending-lists.js';
import { MAX_PAGE, MAX_PER_PAGE, MAX_QUERY_PARAM_LENGTH } from '../src/domain/limits.js';
import { borrowInputFields, returnInputFields } from '../src/domain/loan.js';
import { loanRuleInputFields } from '../src/domain/loan-rule.js';
import { pinInputFields } from '../src/domain/pin.js';
import { sessionInputFields } from '../src/domain/session.js';
import { tokenInputFields } from '../src/domain/token.js';
import { userInputFields } from '../src/domain/user.js';
import { routesOf } from '../src/http/route.js';
import { paths } from '../src/hypermedia/uris.js';
import { controls as controlVocabulary } from '../src/hypermedia/vocabulary.js';
import { json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { RootDocument } from './support/documents.js';
import { expectError } from './support/errors.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is inspected loosely by design
type Doc = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let t: TestCatalogue;
let doc: Doc;

beforeAll(async () => {
  t = await openTestCatalogue();
  const root = await json<RootDocument>(await t.anonymous.request('/'));
  const response = await t.anonymous.request(linkHref(root, 'service-desc') as string);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  doc = await json<Doc>(response);
});
afterAll(() => t.close());

/** Every operation: `[METHOD path, operation]`. */
function operations(): [string, Doc][] {
  return Object.entries(doc.paths as Record<string, Doc>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Doc] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

describe('the OpenAPI document', () => {
  it('is valid against the OpenAPI 3.1 schema (a maintained validator, not inspection by hand)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is OpenAPI 3.1, linked from the root as service-desc, and points at the profile', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('catalogue');
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(doc.externalDocs.url).toBe('/profile');
  });

  it('lists every route the app serves, and only those', async () => {
    // Without rate limits: every refused write would spend from one quota, and the last routes would answer 429.
    const app = createApp({ database: t.database, rateLimits: false });
    // Each route registers a handler for the methods it refuses too (405): served is what does not.
    const served = new Set<string>();
    for (const r of app.routes.filter((r) => METHODS.includes(r.method.toLowerCase()))) {
      const response = await app.request(r.path.replace(/:\w+/g, '1'), { method: r.method });
      if (response.status !== 405) served.add(`${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    }
    expect(served.size).toBeGreaterThan(20);
    expect(new Set(operations().map(([key]) => key))).toEqual(served);
    for (const required of ['GET /', 'POST /books', 'POST /books/{id}/borrow', 'PATCH /loans/{id}', 'GET /profile']) {
      expect(served).toContain(required);
    }
  });

  it('registers every route from the one list of URI templates that links are expanded from', () => {
    const app = createApp({ database: t.database });
    const registered = new Set(routesOf(app).map((r) => r.path));
    const templated = new Set(Object.values(paths).map((template) => template.text.replace(/\{\?[^}]*\}$/, '')));
    expect([...templated].filter((path) => !registered.has(path))).toEqual([]);
    expect([...registered].filter((path) => !templated.has(path) && !path.startsWith('/assets/'))).toEqual([]);
  });

  it('names for each path exactly the methods OPTIONS allows there', async () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Doc>)) {
      const response = await t.request(path.replace(/\{\w+\}/g, '1'), { method: 'OPTIONS' });
      expect(response.status, path).toBe(204);
      const allowed = (response.headers.get('allow') as string)
        .split(', ')
        .filter((m) => !['HEAD', 'OPTIONS'].includes(m));
      expect(allowed.sort(), path).toEqual(
        Object.keys(item)
          .map((m) => m.toUpperCase())
          .sort(),
      );
    }
  });

  it('describes an import’s body as a file of each format it reads, or a form that uploads one', () => {
    const [, operation] = operations().find(([key]) => key === 'POST /imports') as [string, Doc];
    expect(Object.keys(operation.requestBody.content)).toEqual([
      'application/marcxml+xml',
      'application/marc',
      'text/csv',
      'multipart/form-data',
    ]);
    expect(operation['x-control']).toBe('import');
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '413', '415']),
    );
  });

  it('describes each request body by the input fields it is validated against', () => {
    const bodies: Record<string, [readonly InputField[], 'create' | 'change', boolean]> = {
      'POST /books': [bookInputFields, 'create', true],
      'PUT /books/{id}': [bookInputFields, 'change', true],
      'PATCH /books/{id}': [bookInputFields, 'change', true],
      'POST /books/{id}/borrow': [borrowInputFields, 'create', false],
      'POST /authors': [authorInputFields, 'create', true],
      'PUT /authors/{id}': [authorInputFields, 'change', true],
      'PATCH /authors/{id}': [authorInputFields, 'change', true],
      'PATCH /loans/{id}': [returnInputFields, 'create', true],
      // Renewing and receiving take nothing: no body, or `{}` and no field; a hold, optionally its pickup branch.
      'POST /loans/{id}/renewals': [[], 'create', false],
      'POST /copies/{id}/receipts': [[], 'create', false],
      'POST /books/{id}/holds': [holdInputFields, 'create', false],
      'PATCH /holds/{id}': [cancelInputFields, 'create', true],
      'PUT /holds/{id}/pickup-branch': [pickupInputFields, 'create', true],
      'POST /books/{id}/copies': [copyInputFields, 'create', true],
      'PATCH /copies/{id}': [withdrawInputFields, 'create', true],
      'PUT /copies/{id}': [copyPlaceInputFields, 'change', true],
      'POST /branches': [branchInputFields, 'create', true],
      'PUT /branches/{id}': [branchInputFields, 'change', true],
      'PATCH /branches/{id}': [branchInputFields, 'change', true],
      'POST /branches/{id}/closures': [closureInputFields, 'create', true],
      'POST /patron-categories': [listEntryInputFields, 'create', true],
      'PUT /patron-categories/{id}': [listEntryInputFields, 'change', true],
      'PATCH /patron-categories/{id}': [listEntryInputFields, 'change', true],
      'POST /item-types': [listEntryInputFields, 'create', true],
      'PUT /item-types/{id}': [listEntryInputFields, 'change', true],
      'PATCH /item-types/{id}': [listEntryInputFields, 'change', true],
      'POST /loan-rules': [loanRuleInputFields, 'create', true],
      'PUT /loan-rules/{id}': [loanRuleInputFields, 'change', true],
      'PATCH /loan-rules/{id}': [loanRuleInputFields, 'change', true],
      'POST /users': [userInputFields, 'create', true],
      'PUT /users/{id}': [userInputFields, 'change', true],
      'PATCH /users/{id}': [userInputFields, 'change', true],
      'POST /users/{id}/tokens': [tokenInputFields, 'create', false],
      'POST /users/{id}/account/payments': [paymentInputFields, 'create', true],
      'POST /users/{id}/account/charges': [chargeInputFields, 'create', true],
      'POST /users/{id}/account/entries/{entry}/waivers': [waiverInputFields, 'create', true],
      'POST /session': [sessionInputFields, 'create', true],
      'PUT /users/{id}/pin': [pinInputFields, 'create', true],
      'POST /desk/checkouts': [checkOutInputFields, 'create', true],
      'POST /desk/checkins': [checkInInputFields, 'create', true],
    };
    // The MCP endpoint reads JSON-RPC messages, not fields (below); OAI-PMH's POST, the protocol's arguments;
    // an import, a file (below).
    const withBodies = operations().filter(
      ([key, operation]) =>
        operation.requestBody && key !== 'POST /mcp' && key !== 'POST /oai' && key !== 'POST /imports',
    );
    expect(withBodies.map(([key]) => key).sort()).toEqual(Object.keys(bodies).sort());
    for (const [key, operation] of withBodies) {
      const [fields, mode, bodyRequired] = bodies[key] as (typeof bodies)[string];
      expect(operation.requestBody.required, key).toBe(bodyRequired);
      expect(Object.keys(operation.requestBody.content), key).toEqual(['application/json']);
      const schema = operation.requestBody.content['application/json'].schema;
      expect(schema.type, key).toBe('object');
      expect(schema.additionalProperties, key).toBe(false);
      const required = mode === 'create' ? fields.filter((f) => f.required).map((f) => f.name) : [];
      expect(schema.required ?? [], key).toEqual(required);
      expect(schema.minProperties, key).toBe(mode === 'change' ? 1 : undefined);
      expect(Object.keys(schema.properties), key).toEqual(fields.map((f) => f.name));
      for (const field of fields) {
        const declared = schema.properties[field.name];
        const where = `${key} ${field.name}`;
        if (field.unlimited) {
          // An integer, or "none" for no limit (and null where it may be unset).
          expect(declared.title, where).toBe(field.title);
          expect(declared.anyOf, where).toEqual([
            { type: 'integer', minimum: field.min, maximum: field.max },
            { const: 'none', description: 'no limit' },
            ...(field.nullable ? [{ type: 'null' }] : []),
          ]);
          continue;
        }
        const type = field.type === 'date' ? 'string' : field.type;
        // A field null may clear is of its type or null; a list's bounds are its values'.
        const property = field.multiple ? { ...declared.items, title: declared.title } : declared;
        expect(declared.type, where).toEqual(
          field.nullable ? [field.multiple ? 'array' : type, 'null'] : field.multiple ? 'array' : type,
        );
        if (field.multiple) expect(property.type, where).toBe(type);
        expect(declared.maxItems, where).toBe(field.maxItems);
        expect(property.minimum, where).toBe(field.min);
        expect(property.maximum, where).toBe(field.max);
        expect(property.maxLength, where).toBe(field.maxLength);
        expect(property.enum, where).toEqual(field.enum);
        expect(property.title, where).toBe(field.title);
      }
    }
  });

  it('describes the MCP endpoint: JSON-RPC in, JSON out, and the errors of a bounded body', () => {
    const [, mcp] = operations().find(([key]) => key === 'POST /mcp') as [string, Doc];
    expect(Object.keys(mcp.requestBody.content)).toEqual(['application/json']);
    expect(mcp.summary).toMatch(/MCP over Streamable HTTP/);
    expect(Object.keys(mcp.responses['200'].content)).toEqual(['application/json']);
    expect(Object.keys(mcp.responses)).toEqual(expect.arrayContaining(['400', '401', '413', '415']));
  });

  it('describes each listing by its spec: the query parameters and their bounds', () => {
    const names = (key: string) => {
      const [method, path] = key.split(' ') as [string, string];
      return (doc.paths[path][method.toLowerCase()].parameters ?? [])
        .filter((p: Doc) => p.in === 'query')
        .map((p: Doc) => p.name);
    };
    const all = ['filter', 'sort', 'page', 'per_page', 'cursor', 'fields'];
    expect(names('GET /books')).toEqual(['query', 'author', ...all, 'facets']);
    expect(names('GET /authors/{id}/books')).toEqual(['query', 'author', ...all, 'facets']);
    expect(names('GET /authors')).toEqual(['query', ...all]);
    expect(names('GET /users')).toEqual(['query', ...all]);
    expect(names('GET /loans')).toEqual(all);
    expect(names('GET /users/{id}/loans')).toEqual(all);
    expect(names('GET /books/{id}')).toEqual([]);

    const parameter = (name: string) => doc.paths['/books'].get.parameters.find((p: Doc) => p.name === name);
    expect(parameter('page').schema).toEqual({ type: 'integer', minimum: 1, maximum: MAX_PAGE });
    expect(parameter('per_page').schema).toEqual({ type: 'integer', minimum: 1, maximum: MAX_PER_PAGE });
    expect(parameter('query').schema.maxLength).toBe(MAX_QUERY_PARAM_LENGTH);
    expect(parameter('filter')).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } });
    const sort = new RegExp(parameter('sort').schema.pattern);
    expect(sort.test('-publication_year,title')).toBe(true);
    expect(sort.test('price')).toBe(false);
    const filter = new RegExp(parameter('filter').schema.items.pattern);
    expect(filter.test('available:true')).toBe(true);
    expect(filter.test('status:active')).toBe(false);
    const fields = new RegExp(parameter('fields').schema.pattern);
    expect(fields.test('title,due_at')).toBe(true);
    expect(fields.test('title,')).toBe(false);
    const id = doc.paths['/books/{id}'].get.parameters[0];
    expect(id).toMatchObject({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  });

  it('names the control that submits to an operation, with the method the vocabulary gives it', () => {
    const byControl = operations().filter(([, operation]) => operation['x-control']);
    expect(byControl.length).toBeGreaterThan(15);
    for (const [key, operation] of byControl) {
      const control = controlVocabulary[operation['x-control'] as keyof typeof controlVocabulary];
      expect(key.split(' ')[0], key).toBe(control.method);
      expect(operation.description, key).toContain(control.does);
    }
    expect(doc.paths['/books/{id}/borrow'].post['x-control']).toBe('borrow');
    expect(operations().some(([, operation]) => operation.deprecated)).toBe(false);
  });

  it('answers errors in the error shape, and says which', async () => {
    const { Error: shape } = doc.components.schemas;
    expect(shape.required).toEqual(['error']);
    expect(shape.properties.error.required).toEqual(['code', 'message']);
    const post = doc.paths['/books'].post;
    expect(Object.keys(post.responses)).toEqual(['201', '400', '401', '403', '406', '413', '415', '422', 'default']);
    expect(post.responses['201'].headers.Location).toBeDefined();
    expect(doc.paths['/books/{id}'].delete.responses['412']).toEqual({ $ref: '#/components/responses/Error412' });
    expect(doc.paths['/health'].get.security).toEqual([]);
    // A real error has that shape.
    const { error } = await expectError(await t.send('POST', '/books', { title: '' }), 400);
    expect(error.details).toEqual(expect.any(Object));
  });

  it('resolves every $ref, and gives every operation a distinct operationId', () => {
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === '$ref') refs.push(child as string);
          else walk(child);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<Doc | undefined>((at, part) => at?.[part], doc);
      expect(target, ref).toBeDefined();
    }
    const ids = operations().map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is as closed as the catalogue: with public reads off, it needs a token, like the profile', async () => {
    const closed = await openTestCatalogue({ access: { publicReads: false } });
    try {
      for (const path of ['/openapi.json', '/profile']) {
        expect((await closed.anonymous.request(path)).status, path).toBe(401);
        expect((await closed.request(path)).status, path).toBe(200);
      }
    } finally {
      await closed.close();
    }
  });

  it('has its paths under the public base behind a proxy', async () => {
    const base = 'https://example.org/catalogue';
    const proxied = await openTestCatalogue({ publicUrl: base });
    try {
      const root = await json<RootDocument>(await proxied.anonymous.request('/'));
      const href = linkHref(root, 'service-desc') as string;
      expect(href).toBe(`${base}/openapi.json`);
      const described = await json<Doc>(await proxied.anonymous.request(href.slice(base.length)));
      expect(described.servers).toEqual([{ url: base }]);
      expect(described.externalDocs.url).toBe(`${base}/profile`);
      expect(Object.keys(described.paths)).toEqual(Object.keys(doc.paths));
    } finally {
      await proxied.close();
    }
  });
});
