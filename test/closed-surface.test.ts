/**
 * What a closed catalogue (`CATALOGUE_PUBLIC_READS=false`) still answers an anonymous caller: exactly the
 * surface README.md and docs/operations.md list, found by sending every method to every route the app
 * serves (so a new route cannot open unnoticed), and none of it carrying the catalogue's data.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { addFixture, type Fixture, fillPath, type ServedRoute, servedRoutes } from './support/routes.js';

/** The open surface, as the docs list it; HEAD comes with GET, and OPTIONS with any open method. */
const OPEN_SURFACE = [
  'GET /',
  'GET /health',
  'GET /llms.txt',
  'GET /assets/*',
  'GET /mcp',
  'POST /mcp',
  'POST /session',
  'DELETE /session',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const FORMATS = ['application/json', 'application/hal+json', 'application/prs.hal-forms+json', 'text/html'];
/** An MCP client's POST: the transport wants both types in Accept. */
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

let closed: TestCatalogue;
let fixture: Fixture;
let routes: ServedRoute[];

beforeAll(async () => {
  closed = await openTestCatalogue({ access: { publicReads: false } });
  fixture = await addFixture(closed, 'Shuttered');
  routes = await servedRoutes(closed);
});
afterAll(() => closed.close());

/** A route's name in the list: its template, the format's files as one `/assets/*`. */
const surfaceName = (template: string) => (template.startsWith('/assets/') ? '/assets/*' : template);

/** One anonymous request; with a write, a body (a JSON-RPC ping, which is JSON to any other route). */
function anonymously(method: string, path: string, headers: Record<string, string> = {}) {
  if (!['POST', 'PUT', 'PATCH'].includes(method)) return closed.anonymous.request(path, { method, headers });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return closed.anonymous.request(path, { method, headers: { ...MCP_HEADERS, ...headers }, body });
}

/** The whole answer, headers and body, to search for the catalogue's data. */
async function everything(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return `${response.status}\n${headers}\n\n${await response.text()}`;
}

function expectNoData(text: string, what: string) {
  for (const secret of fixture.secrets) expect(text, `${what} holds "${secret}"`).not.toContain(secret);
}

describe('a closed catalogue, to an anonymous caller', () => {
  it('answers without 401 exactly the documented surface, of every route the app serves', async () => {
    expect(routes.length).toBeGreaterThan(20);
    const answered = new Set<string>();
    const statuses: Record<string, number> = {};
    for (const route of routes) {
      const path = fillPath(route.template, fixture);
      for (const method of METHODS) {
        const response = await anonymously(method, path);
        await response.arrayBuffer();
        statuses[`${method} ${route.template}`] = response.status;
        if (route.methods.includes(method) && response.status !== 401) {
          answered.add(`${method} ${surfaceName(route.template)}`);
        }
      }
    }
    expect([...answered].sort()).toEqual([...OPEN_SURFACE].sort());
    // The rest of an open route: HEAD and OPTIONS answer, methods it does not serve are 405. Of a closed
    // one, every method, OPTIONS and HEAD included, is 401.
    for (const route of routes) {
      const open = route.methods.filter((m) => OPEN_SURFACE.includes(`${m} ${surfaceName(route.template)}`));
      for (const method of METHODS) {
        const status = statuses[`${method} ${route.template}`];
        const what = `${method} ${route.template}`;
        if (open.length === 0) expect(status, what).toBe(401);
        else if (method === 'OPTIONS') expect(status, what).toBe(204);
        else if (method === 'HEAD') expect(status, what).toBe(open.includes('GET') ? 200 : 405);
        else if (!route.methods.includes(method)) expect(status, what).toBe(405);
      }
    }
  });

  it('none of what it answers carries the catalogue\u2019s data, in any format', async () => {
    for (const entry of OPEN_SURFACE) {
      const [method, name] = entry.split(' ') as [string, string];
      const templates = routes.map((r) => r.template).filter((template) => surfaceName(template) === name);
      expect(templates.length, entry).toBeGreaterThan(0);
      for (const template of templates) {
        for (const accept of FORMATS) {
          const response = await anonymously(method, template, method === 'POST' ? {} : { Accept: accept });
          expect(response.status, `${entry} ${accept}`).not.toBe(401);
          expectNoData(await everything(response), `${entry} ${accept}`);
        }
      }
    }
  });

  it('MCP: start is the sign-in root, and reading through it is refused as HTTP refuses it', async () => {
    const call = async (name: string, args: Record<string, unknown>) => {
      const response = await closed.anonymous.request('/mcp', {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      expect(response.status).toBe(200);
      const text = JSON.stringify(await json<unknown>(response));
      expectNoData(text, `${name} ${JSON.stringify(args)}`);
      return JSON.parse(text).result;
    };
    const start = await call('start', {});
    expect(start.isError).toBeFalsy();
    expect(start.structuredContent.links.map((l: { rel: string }) => l.rel)).toEqual(['self']);
    expect(start.structuredContent.controls.map((c: { name: string }) => c.name)).toEqual(['login']);
    for (const url of [
      `/books/${fixture.ids.books}`,
      `/authors/${fixture.ids.authors}`,
      `/authors/${fixture.ids.authors}/books`,
      '/books?query=Shuttered',
    ]) {
      const read = await call('get', { url });
      expect(read.isError, url).toBe(true);
      expect(read.structuredContent.status, url).toBe(401);
    }
    expect((await call('follow', { url: '/', rel: 'books' })).isError).toBe(true);
  });

  it('is the surface README.md and docs/operations.md list', async () => {
    const read = (file: string) => readFile(new URL(`../${file}`, import.meta.url), 'utf8');
    const listed = (text: string) =>
      [...text.matchAll(/`(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\/[^`\s]*)`/g)]
        .map((m) => `${m[1]} ${m[2]}`)
        .sort();
    const operations = await read('docs/operations.md');
    const section = /^## What a closed catalogue leaves open\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(operations)?.[1];
    expect(section, 'docs/operations.md: "## What a closed catalogue leaves open"').toBeDefined();
    expect(listed(section as string)).toEqual([...OPEN_SURFACE].sort());
    const readme = await read('README.md');
    const paragraph = /^With `CATALOGUE_PUBLIC_READS=false`[\s\S]*?(?=\n\n)/m.exec(readme)?.[0];
    expect(paragraph, 'README.md: a paragraph starting "With `CATALOGUE_PUBLIC_READS=false`"').toBeDefined();
    expect(listed(paragraph as string)).toEqual([...OPEN_SURFACE].sort());
  });
});
