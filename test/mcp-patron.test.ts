/**
 * A patron's part of the desk's journey done by an MCP agent from tool results alone, through the MCP SDK's
 * own client against the app on a socket with a fixed business clock, on PGlite and (with DATABASE_URL)
 * PostgreSQL: the only URL it is given is the endpoint's. It searches a title misspelt with the root's
 * `search` template, holds the book found at a pickup branch it chooses among the field's options, then
 * (once librarians have checked the copy in, received it and lent it at the desk, over HTTP here) opens My
 * account by `my_account`, renews the loan by its `renew` control, and, after a late return, reads the
 * fine and the balance there.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrowed } from './support/circulation.js';
import { DAY_MS, fixedClock, HOUR_MS } from './support/clock.js';
import { type CopyDocument, controlOf } from './support/documents.js';

const START = '2026-09-01T09:00:00.000Z';
const TITLE = 'Lighthouse Keepers of the North';
const BARCODE = 'MCP-JOURNEY-0001';
const CARD = 'CARD-MCP-PATRON';

interface Field {
  name: string;
  type: string;
  required: boolean;
  value?: unknown;
  options?: { href: string; valueField: string; promptField: string };
}
interface Link {
  rel: string;
  href: string;
  title?: string;
  templated?: boolean;
}
interface Doc {
  status: number;
  url: string;
  location?: string;
  data: Record<string, unknown> | null;
  meta?: Record<string, unknown>;
  items?: ({ href: string } & Record<string, unknown>)[];
  links: Link[];
  controls: { name: string; method: string; fields: Field[] }[];
}
/** A member of a group shown within a document (a loan on My account): its state, links and controls. */
type Member = Record<string, unknown> & { links: Link[]; controls?: Record<string, unknown> };

const clock = fixedClock(START);
let t: TestCatalogue;
let server: ServerType | undefined;
let endpoint: URL;
const clients: Client[] = [];
const branch = { a: 0, b: 0 };
let patron: { id: number; token: string };

const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
  rowsOf<T>(await t.database.db.execute(query))[0] as T;

/** An MCP client connected to the endpoint as this bearer. */
async function agent(token: string): Promise<Client> {
  const client = new Client({ name: 'catalogue-patron-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

/** A tool's document; fails the test on a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Doc> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text;
  expect(result.isError, text).toBeFalsy();
  return result.structuredContent as Doc;
}

const link = (doc: { links: Link[] }, rel: string): Link => {
  const found = doc.links.find((l) => l.rel === rel);
  if (!found) throw new Error(`no ${rel} link among ${doc.links.map((l) => l.rel).join(', ')}`);
  return found;
};
const controlNames = (doc: Doc) => doc.controls.map((c) => c.name);
const loansOf = (account: Doc) =>
  ((account.data?.embedded as { loans?: Member[] } | undefined)?.loans ?? []) as Member[];

/** A librarian's desk request over HTTP, requiring `status`; answers the document. */
async function desk<T = Record<string, unknown>>(path: string, body: Record<string, unknown>, status: number) {
  const response = await t.send('POST', path, body);
  expect(response.status, await response.clone().text()).toBe(status);
  return json<T & { links: Link[] }>(response);
}

beforeAll(async () => {
  t = await openTestCatalogue({ clock });
  branch.a = (await one<{ id: number }>(sql`select id from branches where code = 'main'`)).id;
  branch.b = (
    await one<{ id: number }>(sql`insert into branches (code, name) values ('harbour', 'Harbour branch') returning id`)
  ).id;
  const fined = (
    await one<{ id: number }>(sql`insert into item_types (code, name) values ('fined', 'Fined') returning id`)
  ).id;
  // 25 cents a day from the first day late.
  await t.database.db.execute(
    sql`insert into loan_rules (item_type_id, fine_per_day, grace_days, fine_cap) values (${fined}, 25, 0, 1000)`,
  );
  const bookId = await addBook(t, TITLE, 1998, await addAuthor(t, 'Agnes Lamp'));
  await t.database.db.execute(
    sql`update copies set barcode = ${BARCODE}, item_type_id = ${fined} where book_id = ${bookId}`,
  );
  patron = await addUser(t, 'Pia Patron');
  await t.database.db.execute(
    sql`update users set card_number = ${CARD}, home_branch_id = ${branch.a} where id = ${patron.id}`,
  );
  // Out with someone else, so that the patron can only hold it.
  const other = await addUser(t, 'Otto Other');
  await borrowed(t, bookId, { borrower_id: other.id });

  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const root = await json<{ links: Link[] }>(await fetch(origin, { headers: { Accept: 'application/json' } }));
  endpoint = new URL(link(root, 'mcp').href, origin);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
}, 60_000);

describe('a patron through MCP, from tool results alone', () => {
  it('searches a misspelt title, holds it at another branch, renews the loan and reads the fine on My account', async () => {
    const me = await agent(patron.token);
    const root = await call(me, 'start');
    expect(link(root, 'me').title).toBe('Pia Patron');

    // A misspelt search still finds the book.
    const results = await call(me, 'follow', { url: root.url, rel: 'search', values: { query: 'lighthose keepers' } });
    const found = results.items?.find((item) => item.title === TITLE);
    expect(found, JSON.stringify(results.items)).toBeDefined();

    // Out on loan: the book offers a hold, whose pickup branch is one of the branches its field names.
    const book = await call(me, 'get', { url: found?.href });
    expect(controlNames(book)).toEqual(['hold']);
    const pickup = book.controls[0]?.fields.find((f) => f.name === 'pickup_branch_id');
    const { href, valueField, promptField } = (pickup as Field).options as NonNullable<Field['options']>;
    const branches = await call(me, 'get', { url: href });
    const harbour = branches.items?.find((item) => item[promptField] === 'Harbour branch');
    expect(harbour).toBeDefined();
    const hold = await call(me, 'submit', {
      url: book.url,
      control: 'hold',
      values: { pickup_branch_id: harbour?.[valueField] },
    });
    expect(hold.status).toBe(201);
    expect(hold.data).toMatchObject({ status: 'waiting', pickup_branch_id: branch.b });

    // Librarians: the copy comes back at A and travels to B, is received there (the hold is ready), and is
    // lent to the patron at B's desk by card and barcode.
    const checkedIn = await desk<{ goes_to: string; goes_to_branch_id: number }>(
      '/desk/checkins',
      { barcode: BARCODE, branch_id: branch.a },
      200,
    );
    expect(checkedIn).toMatchObject({ goes_to: 'in_transit', goes_to_branch_id: branch.b });
    const copy = await json<CopyDocument>(await t.request(link(checkedIn, 'copy').href));
    const received = await t.request(controlOf(copy, 'receive').href, { method: 'POST' });
    expect(received.status, await received.clone().text()).toBe(200);
    const onHoldShelf = await call(me, 'get', { url: hold.location ?? hold.url });
    expect(onHoldShelf.data?.status).toBe('ready');
    await desk('/desk/checkouts', { card_number: CARD, barcode: BARCODE, branch_id: branch.b }, 201);

    // Ten days on, My account: the loan, with its renew control; renewing moves the due date on.
    clock.advance(10 * DAY_MS);
    const account = await call(me, 'follow', { url: (await call(me, 'start')).url, rel: 'my_account' });
    const [loan] = loansOf(account);
    expect(loan?.title).toBe(TITLE);
    expect(Object.keys(loan?.controls ?? {})).toContain('renew');
    const lentDue = loan?.due_at as string;
    const renewed = await call(me, 'submit', { url: link(loan as Member, 'self').href, control: 'renew' });
    expect(renewed.status).toBe(200);
    expect(renewed.data).toMatchObject({ renewals: 1 });
    const due = renewed.data?.due_at as string;
    expect(Date.parse(due)).toBeGreaterThan(Date.parse(lentDue));

    // Back three days late, at B's desk: a fine of €0.75, which My account shows as the balance owed.
    clock.set(new Date(Date.parse(due) + 3 * DAY_MS - 12 * HOUR_MS));
    const late = await desk<{ fine: { minor: number } | null }>(
      '/desk/checkins',
      { barcode: BARCODE, branch_id: branch.b },
      200,
    );
    expect(late.fine?.minor).toBe(75);
    const owing = await call(me, 'follow', { url: (await call(me, 'start')).url, rel: 'my_account' });
    expect(loansOf(owing)).toEqual([]);
    expect(owing.data).toMatchObject({ balance: { minor: 75 }, formatted_balance: '€0.75' });
    const charges = (owing.data?.embedded as { charges?: Member[] } | undefined)?.charges ?? [];
    expect(charges.map((charge) => charge.amount)).toEqual([expect.objectContaining({ minor: 75 })]);
  }, 60_000);
});
