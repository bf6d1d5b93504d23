/**
 * The MCP endpoint, through the MCP SDK's own client over Streamable HTTP against the server as its own
 * process (fresh database, the sample catalogue). The endpoint's URL is the root's `mcp` link; from there
 * every URL an agent uses comes from a tool result: it starts with `start`, follows rels, gets the hrefs
 * it was given and submits controls by name.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { ADMIN_TOKEN, type RunningServer, startServer } from './support/server.js';

let server: RunningServer;
/** The MCP endpoint, as the root document links to it. */
let endpoint: URL;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startServer();
  const root = (await (await fetch(server.url, { headers: { Accept: 'application/json' } })).json()) as {
    links: { rel: string; href: string }[];
  };
  const link = root.links.find((l) => l.rel === 'mcp');
  endpoint = new URL(link?.href as string, server.url);
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
});

interface Field {
  name: string;
  type: string;
  required: boolean;
  value?: unknown;
  options?: { href: string; valueField: string; promptField: string };
}
interface Doc {
  status: number;
  url: string;
  location?: string;
  data: Record<string, unknown> | null;
  meta?: Record<string, unknown>;
  items?: ({ href: string } & Record<string, unknown>)[];
  links: { rel: string; href: string; title?: string; templated?: boolean }[];
  controls: { name: string; method: string; fields: Field[] }[];
}

/** An MCP client connected to the endpoint as this bearer, or anonymous. */
async function agent(token?: string): Promise<Client> {
  const client = new Client({ name: 'catalogue-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** A tool's document; fails the test on a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Doc> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text;
  expect(result.isError, text).toBeFalsy();
  expect(text).toContain(`${(result.structuredContent as Doc).status} `);
  return result.structuredContent as Doc;
}

/** A tool error's message and structured content; fails the test if the call succeeded. */
async function refused(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  const text = (result.content as { type: string; text: string }[])[0]?.text as string;
  return { text, structured: result.structuredContent as { status?: number; error: { message: string } } };
}

const link = (doc: Doc, rel: string) => doc.links.find((l) => l.rel === rel) as Doc['links'][number];
const controlNames = (doc: Doc) => doc.controls.map((c) => c.name);

describe('the endpoint', () => {
  it('offers four fixed tools, annotated, with the workflow in their descriptions', async () => {
    const client = await agent();
    expect(client.getInstructions()).toContain('Never build or edit URLs');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['start', 'get', 'follow', 'submit']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['start', 'get', 'follow']) {
      expect(byName[name]?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    expect(byName.submit?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(byName.follow?.description).toMatch(/templated/);
    expect(byName.submit?.description).toMatch(/control/);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(false);
  });
});

describe('task 1: a member finds a book by search, borrows it and returns it', () => {
  let memberToken: string;

  it('the librarian creates the member and their token through MCP', async () => {
    const librarian = await agent(ADMIN_TOKEN);
    const root = await call(librarian, 'start');
    const users = await call(librarian, 'follow', { url: root.url, rel: 'users' });
    const created = await call(librarian, 'submit', {
      url: users.url,
      control: 'create',
      values: { name: 'Mia Member', role: 'member' },
    });
    expect(created.status).toBe(201);
    expect(created.location).toBeTruthy();
    const tokens = await call(librarian, 'follow', { url: created.location, rel: 'tokens' });
    const token = await call(librarian, 'submit', { url: tokens.url, control: 'create', values: { name: 'mcp' } });
    expect(token.status).toBe(201);
    memberToken = token.data?.token as string;
    expect(memberToken).toMatch(/^cat_/);
  });

  it('searches with the root\u2019s search template, borrows the book found and returns the loan', async () => {
    const member = await agent(memberToken);
    const root = await call(member, 'start');
    expect(link(root, 'me').title).toBe('Mia Member');
    expect(link(root, 'search').templated).toBe(true);

    const results = await call(member, 'follow', {
      url: root.url,
      rel: 'search',
      values: { query: 'pride prejudice', per_page: 5 },
    });
    expect(results.meta).toMatchObject({ page: 1, per_page: 5 });
    const found = results.items?.find((item) => item.title === 'Pride and Prejudice');
    expect(found).toBeDefined();

    const book = await call(member, 'get', { url: found?.href });
    expect(book.data).toMatchObject({ title: 'Pride and Prejudice', available: true });
    // The member's controls, and no more: borrow, without the librarian's borrower_id.
    expect(controlNames(book)).toEqual(['borrow']);
    expect(book.controls[0]?.fields).toEqual([]);

    const borrowed = await call(member, 'submit', { url: book.url, control: 'borrow' });
    expect(borrowed.status).toBe(201);
    expect(borrowed.data).toMatchObject({ status: 'active', returned_at: null });
    const loan = await call(member, 'get', { url: borrowed.location });
    // Return, and renew (active, not overdue, never renewed, nobody holds the book): renew takes no fields.
    expect(controlNames(loan)).toEqual(['return', 'renew']);
    expect(loan.controls[0]?.fields[0]).toMatchObject({ name: 'status', value: 'returned' });
    expect(loan.controls[1]).toMatchObject({ method: 'POST', fields: [] });
    const onLoan = await call(member, 'follow', { url: loan.url, rel: 'book' });
    expect(onLoan.data?.available).toBe(false);
    expect(controlNames(onLoan)).toEqual([]);

    // The return control's one field keeps the value it is given ("returned").
    const returned = await call(member, 'submit', { url: loan.url, control: 'return' });
    expect(returned.status).toBe(200);
    expect(returned.data).toMatchObject({ status: 'returned' });
    const back = await call(member, 'follow', { url: returned.url, rel: 'book' });
    expect(back.data?.available).toBe(true);
    expect(controlNames(back)).toEqual(['borrow']);
  });

  it('the same search through the root\u2019s search control answers a page', async () => {
    const member = await agent(memberToken);
    const root = await call(member, 'start');
    const results = await call(member, 'submit', { url: root.url, control: 'search', values: { query: 'persuasion' } });
    expect(results.meta).toMatchObject({ page: 1, per_page: 20 });
    expect(results.items?.map((item) => item.title)).toContain('Persuasion');
  });

  it('a member asking for create (not offered to members) gets a tool error listing what is there', async () => {
    const member = await agent(memberToken);
    const books = await call(member, 'follow', { url: (await call(member, 'start')).url, rel: 'books' });
    expect(controlNames(books)).toEqual(['search']);
    const { text } = await refused(member, 'submit', {
      url: books.url,
      control: 'create',
      values: { title: 'Not Mine to Add', author_id: 1 },
    });
    expect(text).toBe(
      `no control "create" on ${books.url} for this caller: only librarians may change the catalogue. ` +
        'The controls there are: search',
    );
  });
});

describe('task 2: a librarian adds a book through create, picking the author from the field\u2019s options', () => {
  it('creates the book and finds it by its Location', async () => {
    const librarian = await agent(ADMIN_TOKEN);
    const books = await call(librarian, 'follow', { url: (await call(librarian, 'start')).url, rel: 'books' });
    const create = books.controls.find((c) => c.name === 'create');
    expect(create?.method).toBe('POST');
    const authorField = create?.fields.find((f) => f.name === 'author_id') as Field;
    expect(authorField.options).toBeDefined();
    const { href, valueField, promptField } = authorField.options as NonNullable<Field['options']>;

    const choices = await call(librarian, 'get', { url: href });
    const austen = choices.items?.find((item) => item[promptField] === 'Jane Austen');
    expect(austen).toBeDefined();

    const created = await call(librarian, 'submit', {
      url: books.url,
      control: 'create',
      values: { title: 'The Watsons', publication_year: 1804, author_id: austen?.[valueField] },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ title: 'The Watsons', publication_year: 1804, available: true });
    const book = await call(librarian, 'get', { url: created.location });
    expect(book.data).toMatchObject({ title: 'The Watsons' });
    expect(controlNames(book)).toEqual(expect.arrayContaining(['borrow', 'update', 'edit', 'delete']));
    const author = await call(librarian, 'follow', { url: book.url, rel: 'author' });
    expect(author.data?.name).toBe('Jane Austen');

    // Deleting answers 204 and no document: where to go next comes from its Link header.
    const deleted = await call(librarian, 'submit', { url: book.url, control: 'delete' });
    expect(deleted).toMatchObject({ status: 204, data: null, controls: [] });
    expect(link(deleted, 'collection').href).toMatch(/^\/books\?/);
    const gone = await refused(librarian, 'get', { url: book.url });
    expect(gone.text).toMatch(/^HTTP 404 from \/books\/\d+: /);
    expect(gone.structured.status).toBe(404);
  });
});

describe('task 2b: a librarian charges an account, takes a payment and waives the rest', () => {
  it('follows the user to the account and submits its controls by name', async () => {
    const librarian = await agent(ADMIN_TOKEN);
    const root = await call(librarian, 'start');
    const users = await call(librarian, 'follow', { url: root.url, rel: 'users' });
    const user = await call(librarian, 'submit', {
      url: users.url,
      control: 'create',
      values: { name: 'Owen Owing', role: 'member' },
    });
    const account = await call(librarian, 'follow', { url: user.location, rel: 'account' });
    expect(controlNames(account)).toEqual(['create', 'charge']);
    const charged = await call(librarian, 'submit', {
      url: account.url,
      control: 'charge',
      values: { amount: 300, reason: 'damaged cover' },
    });
    expect(charged.status).toBe(201);
    const paid = await call(librarian, 'submit', { url: account.url, control: 'create', values: { amount: 100 } });
    expect(paid.status).toBe(201);
    const charge = await call(librarian, 'get', { url: charged.location });
    expect(controlNames(charge)).toEqual(['waive']);
    const waived = await call(librarian, 'submit', {
      url: charge.url,
      control: 'waive',
      values: { reason: 'goodwill' },
    });
    expect(waived.data).toMatchObject({ kind: 'waiver', amount: { minor: 200, currency: 'EUR' } });
    const settled = await call(librarian, 'get', { url: account.url });
    expect(settled.data).toMatchObject({ balance: { minor: 0, currency: 'EUR' }, formatted_balance: '€0.00' });
  });
});

describe('task 2c: a librarian receives a copy handed in at another branch, through its receive control', () => {
  it('returns the loan at a new branch, finds the copy in transit home, and receives it', async () => {
    const librarian = await agent(ADMIN_TOKEN);
    const root = await call(librarian, 'start');
    const branches = await call(librarian, 'follow', { url: root.url, rel: 'branches' });
    const created = await call(librarian, 'submit', {
      url: branches.url,
      control: 'create',
      values: { code: 'mcp-east', name: 'East (agents)' },
    });
    expect(created.status).toBe(201);
    const east = (await call(librarian, 'get', { url: created.location })).data?.id;

    const books = await call(librarian, 'follow', { url: root.url, rel: 'books' });
    const onShelf = books.items?.find((item) => item.available === true);
    const book = await call(librarian, 'get', { url: onShelf?.href });
    const lent = await call(librarian, 'submit', { url: book.url, control: 'borrow' });
    expect(lent.status).toBe(201);
    const returned = await call(librarian, 'submit', {
      url: lent.location,
      control: 'return',
      values: { branch_id: east },
    });
    expect(returned.status).toBe(200);

    const copy = await call(librarian, 'follow', { url: returned.url, rel: 'copy' });
    expect(copy.data).toMatchObject({ status: 'in_transit', location_branch_id: east });
    expect(controlNames(copy)).toContain('receive');
    const received = await call(librarian, 'submit', { url: copy.url, control: 'receive' });
    expect(received.status).toBe(200);
    expect(received.data).toMatchObject({ status: 'available', transit_to_branch_id: null });
    expect(controlNames(received)).not.toContain('receive');
  });
});

describe('task 3: an anonymous agent is offered no write at all', () => {
  it('meets no control other than search and login in a crawl of links and items', async () => {
    const anonymous = await agent();
    const root = await call(anonymous, 'start');
    expect(controlNames(root).sort()).toEqual(['login', 'search']);
    const search = await call(anonymous, 'follow', { url: root.url, rel: 'search', values: { query: 'quixote' } });
    const queue: string[] = [...(search.items ?? []).map((item) => item.href)];
    // The change feed names deleted books too (task 2 deleted one): its own tests cover it. OAI-PMH and SRU
    // answer harvesters and union catalogues in XML, not documents for agents.
    const skipped = ['mcp', 'service-desc', 'changes', 'oai-pmh', 'sru'];
    for (const l of root.links) if (!l.templated && !skipped.includes(l.rel)) queue.push(l.href);
    const seen = new Set<string>([root.url]);
    const offered = new Set<string>(controlNames(root));
    while (queue.length > 0 && seen.size < 30) {
      const url = queue.shift() as string;
      if (seen.has(url)) continue;
      seen.add(url);
      const doc = await call(anonymous, 'get', { url });
      for (const name of controlNames(doc)) offered.add(name);
      for (const l of doc.links) if (!l.templated && !skipped.includes(l.rel)) queue.push(l.href);
      for (const item of (doc.items ?? []).slice(0, 2)) queue.push(item.href);
    }
    expect(seen.size).toBeGreaterThan(10);
    expect([...offered].sort()).toEqual(['login', 'search']);
  });

  it('is refused borrow (not offered) and what only signed-in users may read', async () => {
    const anonymous = await agent();
    const books = await call(anonymous, 'follow', { url: (await call(anonymous, 'start')).url, rel: 'books' });
    const book = await call(anonymous, 'get', { url: books.items?.[0]?.href });
    const { text } = await refused(anonymous, 'submit', { url: book.url, control: 'borrow' });
    expect(text).toBe(
      `no control "borrow" on ${book.url} for this caller: sign in: send Authorization: Bearer <token>. ` +
        'The controls there are: none',
    );
  });
});

describe('refusals', () => {
  it('a value of the wrong type: the field named, in the words HTTP uses for the same body', async () => {
    const librarian = await agent(ADMIN_TOKEN);
    const books = await call(librarian, 'follow', { url: (await call(librarian, 'start')).url, rel: 'books' });
    const values = { title: 'Typed Wrong', publication_year: 'nineteen', author_id: 1 };
    const { text, structured } = await refused(librarian, 'submit', { url: books.url, control: 'create', values });
    expect(text).toBe('invalid request body: publication_year must be an integer');
    expect(structured).toMatchObject({ status: 400, error: { details: { publication_year: 'must be an integer' } } });
    // The same body sent over HTTP to the collection meets the same validator.
    const http = await fetch(new URL(books.url, server.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(values),
    });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { error: { message: string } }).error.message).toBe(text);

    const missing = await refused(librarian, 'submit', {
      url: books.url,
      control: 'create',
      values: { publication_year: 1900, author_id: 1 },
    });
    expect(missing.text).toBe('invalid request body: title is required');
    const unknown = await refused(librarian, 'submit', {
      url: books.url,
      control: 'create',
      values: { title: 'X', publication_year: 1900, author_id: 1, edition: '2nd' },
    });
    expect(unknown.text).toBe(
      'invalid request body: edition unknown field; accepted fields: title, publication_year, author_id, isbn, language, subjects, publisher',
    );
  });

  it('a query parameter HTTP refuses: its status and its message, word for word', async () => {
    const anonymous = await agent();
    const root = await call(anonymous, 'start');
    const { text, structured } = await refused(anonymous, 'submit', {
      url: root.url,
      control: 'search',
      values: { query: 'emma', per_page: 500 },
    });
    expect(text).toMatch(/^HTTP 400 from .*: query parameter "per_page" must be a whole number from 1 to 100$/);
    expect(structured.status).toBe(400);
    const cursor = await refused(anonymous, 'submit', { url: root.url, control: 'search', values: { cursor: 'x' } });
    expect(cursor.text).toMatch(/^unknown query parameter "cursor"; accepted: query, author, filter/);
  });

  it('an unknown control, an unknown rel and an unknown template variable: what is there instead', async () => {
    const anonymous = await agent();
    const root = await call(anonymous, 'start');
    const control = await refused(anonymous, 'submit', { url: root.url, control: 'renew' });
    expect(control.text).toBe(
      `no control "renew" on ${root.url} for this caller; the controls there are: login, search`,
    );
    const rel = await refused(anonymous, 'follow', { url: root.url, rel: 'loans' });
    expect(rel.text).toMatch(
      /^no link "loans" on .*; its links are: self, books, authors, search, suggestions, changes, oai-pmh, sru, profile/,
    );
    const variable = await refused(anonymous, 'follow', { url: root.url, rel: 'search', values: { isbn: '1' } });
    expect(variable.text).toMatch(/^the "search" link has no variable "isbn"; its variables are: query, author/);
    const template = await refused(anonymous, 'get', { url: link(root, 'search').href });
    expect(template.text).toMatch(/is a URI template: use the follow tool/);
  });

  it('a URL outside the service is refused before any request', async () => {
    const anonymous = await agent();
    for (const url of ['https://example.com/books/1', 'http://127.0.0.1:1/books/1', 'file:///etc/passwd']) {
      const { text } = await refused(anonymous, 'get', { url });
      expect(text).toMatch(/is outside this service/);
    }
    const followed = await refused(anonymous, 'follow', { url: 'https://example.com/', rel: 'books' });
    expect(followed.text).toMatch(/is outside this service/);
    const submitted = await refused(anonymous, 'submit', { url: '//example.com/books', control: 'create' });
    expect(submitted.text).toMatch(/is outside this service/);
  });

  it('arguments of the wrong shape are a tool error too', async () => {
    const anonymous = await agent();
    const { text } = await refused(anonymous, 'get', { href: '/' });
    expect(text).toMatch(/url/);
  });

  it('a bearer token that is not valid is refused at the door (401)', async () => {
    await expect(agent('cat_not-a-real-token')).rejects.toThrow(/401|Unauthorized/i);
  });
});

describe('the transport', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  it('answers malformed JSON-RPC with a JSON-RPC error, never a 500', async () => {
    const bad = await post('{"jsonrpc":');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const notRpc = await post('{"hello":"world"}');
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const unknownMethod = await post('{"jsonrpc":"2.0","id":7,"method":"no/such/method"}');
    expect(await unknownMethod.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
  });

  it('bounds bodies like other writes, and offers no SSE stream or session (405)', async () => {
    const big = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'x'.repeat(20_000) } }),
    );
    expect(big.status).toBe(413);
    const get = await fetch(endpoint, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const del = await fetch(endpoint, { method: 'DELETE' });
    expect(del.status).toBe(405);
  });

  it('answers a plain GET (a person following the root\u2019s link) with what it is and how to connect', async () => {
    const response = await fetch(endpoint, { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'MCP endpoint', url: '/mcp' });
    expect(Object.keys(body.tools as object)).toEqual(['start', 'get', 'follow', 'submit']);
    expect(body.authentication).toMatch(/Authorization: Bearer/);
  });
});

describe('behind a proxy that serves the catalogue under a path prefix (CATALOGUE_PUBLIC_URL)', () => {
  const base = 'https://library.example/catalogue';
  let t: TestCatalogue;
  let client: Client;

  beforeAll(async () => {
    t = await openTestCatalogue({ seedSample: true, publicUrl: base });
    client = new Client({ name: 'catalogue-test', version: '1.0.0' });
    // The proxy: the public URL's prefix off, the request on to the app (in process).
    const fetchThroughProxy = (url: string | URL, init?: RequestInit) => {
      const at = new URL(url);
      return t.anonymous.request(at.pathname.replace(/^\/catalogue/, '') + at.search, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: fetchThroughProxy }));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('follows the public URLs it is given, and refuses one outside the base path', async () => {
    const root = await call(client, 'start');
    expect(root.url).toBe(`${base}/`);
    expect(link(root, 'mcp').href).toBe(`${base}/mcp`);
    const books = await call(client, 'follow', { url: root.url, rel: 'books' });
    expect(books.url).toBe(`${base}/books?page=1&per_page=20`);
    const book = await call(client, 'get', { url: books.items?.[0]?.href });
    expect(book.data?.id).toEqual(expect.any(Number));
    for (const url of ['/books/1', 'https://library.example/books/1', `${base}/../books/1`, `${base}x/books/1`]) {
      const { text } = await refused(client, 'get', { url });
      expect(text).toContain(`is outside this service (${base}/)`);
    }
  });
});
