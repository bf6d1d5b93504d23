/**
 * What an agent is told when the MCP tools cannot do what it asks: values nested past the bound, and a
 * malformed call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VALUE_DEPTH } from '../src/mcp/arguments.js';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

let t: TestCatalogue;

beforeAll(async () => {
  t = await openTestCatalogue({ seedSample: true });
});
afterAll(async () => {
  await t?.close();
});

/** A JSON-RPC message posted to the endpoint as it stands, outside any client. */
async function rpc(message: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.anonymous.request('/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  return { status: response.status, body: await json(response) };
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
