/**
 * `/llms.txt`: a short Markdown index for LLM tools (llmstxt.org), public even in a closed catalogue, its
 * URLs path-absolute or under the public base (never the request's Host), served whatever the client accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

let t: TestCatalogue;

beforeAll(async () => {
  t = await openTestCatalogue();
});
afterAll(() => t.close());

/** The `[title](url)` links of a Markdown text. */
function links(text: string): Map<string, string> {
  return new Map([...text.matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)].map((m) => [m[1] as string, m[2] as string]));
}

describe('/llms.txt', () => {
  it('is Markdown in the llmstxt.org shape: a title, a summary, sections of links', async () => {
    const response = await t.anonymous.request('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await response.text();
    const lines = text.split('\n');
    expect(lines[0]).toBe('# catalogue');
    expect(lines.find((line) => line.trim() !== '' && !line.startsWith('#'))).toMatch(/^> /);
    expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## Start', '## Describe', '## Authenticate']);
    expect(text).toMatch(/Authorization: Bearer <token>/);
    expect([...links(text).entries()]).toEqual([
      ['Root document', '/'],
      ['MCP endpoint', '/mcp'],
      ['Profile', '/profile'],
      ['OpenAPI description', '/openapi.json'],
      ['users collection', '/users?page=1&per_page=20'],
    ]);
  });

  it('links what the service serves: the root, the profile and the OpenAPI description answer', async () => {
    const text = await (await t.request('/llms.txt')).text();
    for (const title of ['Root document', 'Profile', 'OpenAPI description', 'users collection']) {
      expect((await t.request(links(text).get(title) as string)).status, title).toBe(200);
    }
  });

  it('is the same whatever host the request names; absolute only under the configured public base', async () => {
    const other = await (await t.request('http://catalogue.test:8080/llms.txt')).text();
    expect(other).toBe(await (await t.request('/llms.txt')).text());
    const behind = await openTestCatalogue({ publicUrl: 'https://library.example/catalogue' });
    try {
      const text = await (await behind.request('http://internal:3000/llms.txt')).text();
      expect(links(text).get('Root document')).toBe('https://library.example/catalogue/');
      expect(links(text).get('MCP endpoint')).toBe('https://library.example/catalogue/mcp');
    } finally {
      await behind.close();
    }
  });

  it('is public in a closed catalogue, where the root is a sign-in page', async () => {
    const closed = await openTestCatalogue({ access: { publicReads: false } });
    try {
      expect((await closed.anonymous.request('/books')).status).toBe(401);
      const response = await closed.anonymous.request('/llms.txt');
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/^# catalogue\n/);
    } finally {
      await closed.close();
    }
  });

  it('is served whatever the Accept, and takes no other method', async () => {
    for (const accept of ['text/markdown', 'text/plain', 'application/json', 'text/html', '*/*']) {
      const response = await t.request('/llms.txt', { headers: { Accept: accept } });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    }
    const post = await t.request('/llms.txt', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
