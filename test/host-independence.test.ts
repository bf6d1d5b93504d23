/**
 * The request's `Host` (and the `X-Forwarded-*`/`Forwarded` a proxy might pass on) shapes no answer: hrefs
 * are path-absolute, or absolute under `CATALOGUE_PUBLIC_URL` alone, so a shared cache that stores one
 * caller's answer cannot be poisoned with another host's URLs. Sent to every route, in every format, to
 * errors, writes, `/llms.txt` and the MCP endpoint; and once over a socket, where the URL is built from Host.
 */

import { request as httpRequest } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, openTestCatalogue, type TestCatalogue, type TestClient } from './support/catalogue.js';
import type { ProblemDocument, RootDocument } from './support/documents.js';
import { addFixture, type Fixture, fillPath, servedRoutes } from './support/routes.js';
import { ADMIN_TOKEN, type RunningServer, startServer } from './support/server.js';

const EVIL = 'evil.example';
const FORGED = {
  Host: EVIL,
  'X-Forwarded-Host': EVIL,
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Port': '8443',
  Forwarded: `host=${EVIL};proto=https`,
};
const ACCEPTS = [
  'application/json',
  'application/hal+json',
  'application/prs.hal-forms+json',
  'text/html',
  'application/problem+json',
];
const PROBLEM = 'application/problem+json';

let t: TestCatalogue;
let fixture: Fixture;

beforeAll(async () => {
  t = await openTestCatalogue();
  fixture = await addFixture(t, 'Hostless');
});
afterAll(() => t.close());

/** A request as node-server hands it to the app when `Host: evil.example` arrives: the URL built from it. */
const forged = (client: TestClient, path: string, init: RequestInit = {}) =>
  client.request(`http://${EVIL}${path}`, { ...init, headers: { ...FORGED, ...(init.headers as object) } });

/** The whole answer, headers and body, for a search. */
async function everything(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return `${response.status}\n${headers}\n\n${await response.text()}`;
}

async function expectNoHost(response: Response, what: string): Promise<string> {
  const text = await everything(response);
  expect(text.toLowerCase(), what).not.toContain(EVIL);
  return text;
}

/** The JSON-RPC answer to a `tools/call`. */
interface ToolAnswer {
  result: CallToolResult;
}

/** A JSON-RPC `tools/call` to `/mcp`, as an MCP client posts it (stateless: no initialisation needed). */
const toolCall = (name: string, args: Record<string, unknown>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

describe('with Host: evil.example and forwarded headers naming it', () => {
  it('every route the app serves answers GET without it, in every format, to the librarian and to anyone', async () => {
    const routes = (await servedRoutes(t)).filter((route) => route.methods.includes('GET'));
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const path = fillPath(route.template, fixture);
      for (const client of [t, t.anonymous]) {
        for (const accept of ACCEPTS) {
          await expectNoHost(await forged(client, path, { headers: { Accept: accept } }), `GET ${path} ${accept}`);
        }
      }
    }
  });

  it('errors, as the seed shape, a problem document or a page, carry none of it', async () => {
    const cases: [string, RequestInit, TestClient][] = [
      ['/nothing/here', {}, t],
      ['/books', { method: 'DELETE' }, t],
      ['/books', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }, t.anonymous],
      ['/books?per_page=0', {}, t],
    ];
    for (const [path, init, client] of cases) {
      for (const accept of [undefined, PROBLEM, 'text/html']) {
        const headers = { ...(init.headers as object), ...(accept && { Accept: accept }) };
        const response = await forged(client, path, { ...init, headers });
        expect(response.status, path).toBeGreaterThanOrEqual(400);
        await expectNoHost(response, `${init.method ?? 'GET'} ${path} ${accept}`);
      }
    }
    for (const accept of ['text/csv', `text/csv, ${PROBLEM}`]) {
      const response = await forged(t, `/books/${fixture.ids.books}`, { headers: { Accept: accept } });
      expect(response.status).toBe(406);
      await expectNoHost(response, `406 for ${accept}`);
    }
    const problem = await json<ProblemDocument>(await forged(t, '/nothing/here', { headers: { Accept: PROBLEM } }));
    // RFC 9457 §3.1.1: a relative `type` resolves against the document's URI, as any link of ours does.
    expect(problem.type).toBe('/profile#problem-not-found');
  });

  it('writes: Location, Content-Location and Link carry none of it', async () => {
    const created = await forged(t, '/authors', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Forged Host Author' }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    await expectNoHost(created, 'POST /authors');
    const deleted = await forged(t, location, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    await expectNoHost(deleted, `DELETE ${location}`);
  });

  it('/llms.txt links path-absolute URLs', async () => {
    const text = await expectNoHost(await forged(t.anonymous, '/llms.txt'), '/llms.txt');
    expect(text).toContain('[MCP endpoint](/mcp)');
  });

  it('the MCP endpoint: its description, its tools\u2019 documents and their refusals', async () => {
    await expectNoHost(await forged(t.anonymous, '/mcp', { headers: { Accept: 'application/json' } }), 'GET /mcp');
    const calls: [string, Record<string, unknown>][] = [
      ['start', {}],
      ['get', { url: `/books/${fixture.ids.books}` }],
      ['follow', { url: '/', rel: 'books' }],
      ['get', { url: 'https://example.com/books/1' }],
      ['get', { url: '/books/999999' }],
    ];
    for (const [name, args] of calls) {
      const response = await forged(t, '/mcp', toolCall(name, args));
      expect(response.status).toBe(200);
      await expectNoHost(response, `${name} ${JSON.stringify(args)}`);
    }
    const refused = await json<ToolAnswer>(await forged(t, '/mcp', toolCall('get', { url: 'https://example.com/' })));
    expect(refused.result.content[0]?.type === 'text' && refused.result.content[0].text).toMatch(
      /is outside this service \(\/\)/,
    );
  });

  it('in a closed catalogue too, where MCP refuses an anonymous read', async () => {
    const closed = await openTestCatalogue({ access: { publicReads: false } });
    try {
      const refused = await forged(closed.anonymous, '/mcp', toolCall('get', { url: '/books/1' }));
      await expectNoHost(refused, 'MCP get in a closed catalogue');
      for (const path of ['/', '/llms.txt', '/books', '/mcp']) {
        await expectNoHost(await forged(closed.anonymous, path, { headers: { Accept: PROBLEM } }), path);
      }
    } finally {
      await closed.close();
    }
  });
});

describe('with CATALOGUE_PUBLIC_URL, absolute URLs are under it whatever the Host', () => {
  const base = 'https://library.example/catalogue';
  let behind: TestCatalogue;

  beforeAll(async () => {
    behind = await openTestCatalogue({ publicUrl: base });
  });
  afterAll(() => behind.close());

  it('/llms.txt, a problem document\u2019s type, a document\u2019s links and MCP\u2019s start', async () => {
    const llms = await expectNoHost(await forged(behind.anonymous, '/llms.txt'), '/llms.txt');
    expect(llms).toContain(`[MCP endpoint](${base}/mcp)`);
    expect(llms).toContain(`[Root document](${base}/)`);
    const problem = await forged(behind, '/nothing', { headers: { Accept: PROBLEM } });
    expect((await json<ProblemDocument>(problem.clone())).type).toBe(`${base}/profile#problem-not-found`);
    await expectNoHost(problem, 'a problem document');
    const root = await forged(behind, '/');
    expect((await json<RootDocument>(root.clone())).links[0]).toEqual({ rel: 'self', href: `${base}/` });
    await expectNoHost(root, 'the root');
    const start = await json<ToolAnswer>(await forged(behind, '/mcp', toolCall('start', {})));
    expect(start.result.structuredContent?.url).toBe(`${base}/`);
    expect(JSON.stringify(start)).not.toContain(EVIL);
  });
});

describe('over a socket, where the server builds the request URL from Host', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { CATALOGUE_RATE_LIMITS: 'off' } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** One request with the headers given as sent, Host included (fetch would set its own). */
  function raw(path: string, headers: Record<string, string>, body?: string): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', headers }, (res) => {
        let text = `${res.statusCode}\n${res.rawHeaders.join('\n')}\n\n`;
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  it('/llms.txt, a problem document, the root and MCP\u2019s start name no other host', async () => {
    const answers = [
      await raw('/llms.txt', FORGED),
      await raw('/nothing', { ...FORGED, Accept: PROBLEM }),
      await raw('/', { ...FORGED, Authorization: `Bearer ${ADMIN_TOKEN}` }),
      await raw('/mcp', { ...FORGED, ...toolCall('start', {}).headers }, toolCall('start', {}).body),
    ];
    expect(answers.map((answer) => answer.split('\n')[0])).toEqual(['200', '404', '200', '200']);
    for (const answer of answers) expect(answer.toLowerCase()).not.toContain(EVIL);
  });
});
