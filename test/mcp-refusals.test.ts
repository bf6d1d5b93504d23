/**
 * What an agent is told when the MCP tools cannot do what it asks: a control gone between its read and
 * its submit (the policy's reason, as HTTP gives it), values nested past the bound, and a malformed call.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VALUE_DEPTH } from '../src/mcp/arguments.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrow, borrowed } from './support/circulation.js';
import type { ErrorBody } from './support/errors.js';

let t: TestCatalogue;
const clients: Client[] = [];

beforeAll(async () => {
  t = await openTestCatalogue({ seedSample: true });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await t?.close();
});

/** An MCP client of the app in process, as the holder of `token` (anonymous without one). */
async function agent(token?: string): Promise<Client> {
  const caller = token === undefined ? t.anonymous : t.as(token);
  const client = new Client({ name: 'catalogue-test', version: '1.0.0' });
  const fetchInProcess = (url: string | URL, init?: RequestInit) => {
    const at = new URL(url);
    return caller.request(at.pathname + at.search, init);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: fetchInProcess }));
  clients.push(client);
  return client;
}

interface ToolResult {
  isError?: boolean;
  text: string;
  structured: {
    status?: number;
    url?: string;
    controls?: { name: string }[];
    error?: { message: string; details?: Record<string, string> };
  };
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text as string;
  return { isError: result.isError as boolean | undefined, text, structured: result.structuredContent as never };
}

/** A JSON-RPC message posted to the endpoint as it stands, outside any client. */
async function rpc(message: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.anonymous.request('/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  return { status: response.status, body: await json<Record<string, unknown>>(response) };
}

/** `"x"` in `depth` lists, as JSON text: `[[…["x"]…]]` (the SDK's client cannot write thousands of levels). */
const nested = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

/** A tool call's result, posted as JSON text; `values` is written in as it is given. */
async function callWithValues(name: string, args: Record<string, string>, values: string) {
  const fixed = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } });
  const { body } = await rpc(fixed.replace(/}}}$/, `,"values":${values}}}}`));
  const result = body.result as { isError?: boolean; content: { text: string }[] };
  return { isError: result.isError, text: result.content[0]?.text as string };
}

describe('a control gone between the agent\u2019s read and its submit', () => {
  it('is refused with the policy\u2019s reason, in HTTP\u2019s words, and the controls that are there', async () => {
    const bookId = await addBook(t, 'The Last Copy', 1961, await addAuthor(t, 'Ada Lastcopy'));
    const first = await addUser(t, 'Flora Firsthand', 'member');
    const second = await addUser(t, 'Silas Slowhand', 'member');

    // The second member's agent reads the book: it may borrow it.
    const slow = await agent(second.token);
    const read = await tool(slow, 'get', { url: `/books/${bookId}` });
    expect(read.structured.controls?.map((c) => c.name)).toEqual(['borrow']);

    // The first member takes the only copy.
    await borrowed(t.as(first.token), bookId);

    // The agent submits what it read; HTTP answers the same member's POST at that moment with a 409.
    const submitted = await tool(slow, 'submit', { url: read.structured.url, control: 'borrow' });
    const http = await borrow(t.as(second.token), bookId);
    expect(http.status).toBe(409);
    const { message } = (await json<ErrorBody>(http)).error;
    expect(message).toMatch(/^no copy of book \d+ is available to borrow now \(the next is due back /);

    expect(submitted.isError).toBe(true);
    expect(submitted.text).toBe(
      `no control "borrow" on /books/${bookId} for this caller: ${message}. The controls there are: hold`,
    );
    expect(submitted.structured).toMatchObject({ status: 409, error: { message: submitted.text } });
  });

  it('a control only librarians are offered: the reason HTTP gives a member', async () => {
    const member = await addUser(t, 'Mona Memberonly', 'member');
    const http = await t.as(member.token).send('POST', '/books', { title: 'x', publication_year: 2000, author_id: 1 });
    expect(http.status).toBe(403);
    const { message } = (await json<ErrorBody>(http)).error;
    const { text, structured } = await tool(await agent(member.token), 'submit', {
      url: '/books?page=1&per_page=20',
      control: 'create',
      values: { title: 'x' },
    });
    expect(text).toBe(
      `no control "create" on /books?page=1&per_page=20 for this caller: ${message}. The controls there are: search`,
    );
    expect(structured.status).toBe(403);
  });

  it('a name no renderer offers there: what is there, without a reason to give', async () => {
    const { text, structured } = await tool(await agent(), 'submit', { url: '/', control: 'renew' });
    expect(text).toBe('no control "renew" on / for this caller; the controls there are: login, search');
    expect(structured.status).toBeUndefined();
  });
});

describe('values nested past the bound', () => {
  it(`a variable nested deeper than ${MAX_VALUE_DEPTH} level is refused by name, however deep`, async () => {
    for (const depth of [MAX_VALUE_DEPTH + 1, 1_000, 3_000, 5_000]) {
      const { isError, text } = await callWithValues(
        'follow',
        { url: '/', rel: 'search' },
        `{"query":${nested(depth)}}`,
      );
      expect(isError, `depth ${depth}: ${text}`).toBe(true);
      expect(text).toContain('"query" must be a string, number, boolean or null, or a list or map of them');
      expect(text).toContain(`nested at most ${MAX_VALUE_DEPTH} level deep`);
      expect(text).not.toMatch(/stack|Maximum call/i);
    }
  });

  it('a value within the bound is expanded as RFC 6570 says (a list repeats its parameter)', async () => {
    const listed = await callWithValues('follow', { url: '/', rel: 'search' }, '{"filter":["available:true"]}');
    expect(listed.isError, listed.text).toBeFalsy();
    expect(listed.text).toMatch(/^200 \/books\?filter=available%3Atrue/);
  });

  it('a control\u2019s values nested past the bound are refused by name too', async () => {
    const { isError, text } = await callWithValues(
      'submit',
      { url: '/', control: 'search' },
      `{"query":${nested(5_000)}}`,
    );
    expect(isError).toBe(true);
    expect(text).toContain('"query" must be a string');
    expect(text).toContain(`nested at most ${MAX_VALUE_DEPTH} level deep`);
  });
});

describe('a malformed tools/call', () => {
  it('without params, or with params of the wrong shape, is Invalid params (-32602) in plain words', async () => {
    for (const params of [undefined, { arguments: {} }, { name: 7 }, { name: 'get', arguments: [1] }]) {
      const { status, body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
      expect(status, JSON.stringify(params)).toBe(200);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
      const { message } = body.error as { message: string };
      expect(message).toMatch(/^Invalid params: /);
      expect(message).not.toMatch(/"code"|"path"|expected|invalid_type/);
    }
  });
});
