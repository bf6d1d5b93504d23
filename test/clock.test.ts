/**
 * Business time follows the app's clock, over HTTP, on PGlite and (with DATABASE_URL) PostgreSQL: a loan is
 * made, due and returned by it, turns overdue when it passes the due date (its status, the listing's filters,
 * the renew control and the renewal itself agree, for an MCP agent too), and a ready hold expires when it passes `ready_until`, in
 * a read and in the sweep. The clock stands years away from the machine's, so a query that still read the
 * database's `now()` would disagree with it; no test sleeps.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireReadyHolds } from '../src/db/queries/circulation.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrowed, held, renew, returned } from './support/circulation.js';
import { DAY_MS, dueInDays, type FixedClock, fixedClock } from './support/clock.js';
import type { BookDocument, HoldDocument, LoanDocument, PageDoc } from './support/documents.js';
import { expectError } from './support/errors.js';

const LOAN_DAYS = 14;
const HOLD_DAYS = 3;
const START = '2031-03-04T10:00:00.000Z';

const iso = (ms: number) => new Date(ms).toISOString();

describe('business time follows the clock', () => {
  let t: TestCatalogue;
  let clock: FixedClock;
  let author: number;
  let serial = 0;

  beforeAll(async () => {
    clock = fixedClock(START);
    t = await openTestCatalogue({ clock, access: { loanDays: LOAN_DAYS, holdDays: HOLD_DAYS } });
    author = await addAuthor(t, 'Clockwork Author');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function member() {
    const user = await addUser(t, `Timed Member ${++serial}`, 'member');
    return { id: user.id, client: t.as(user.token) };
  }

  async function read<T>(path: string, client: TestClient = t): Promise<T> {
    const response = await client.request(path);
    expect(response.status).toBe(200);
    return json<T>(response);
  }

  const overdueIds = async (filter: string) =>
    (await read<PageDoc<LoanDocument>>(`/loans?filter=${filter}&per_page=100`)).data.map((loan) => loan.id);

  it('a loan is made at the clock\u2019s time, turns overdue when the clock passes its due date, and is returned then', async () => {
    const reader = await member();
    const book = await addBook(t, `Timed Loan ${++serial}`, 2001, author);
    clock.set(START);
    const loan = await borrowed(reader.client, book);
    // Due at the end of the day LOAN_DAYS on (the default branch opens every day; the time zone is UTC).
    const due = Date.parse(dueInDays(START, LOAN_DAYS));
    expect(loan).toMatchObject({ borrowed_at: START, due_at: iso(due), status: 'active' });
    expect(loan.controls.renew).toBeDefined();

    // A millisecond before the due date it is still active, in its document and in the listing.
    clock.set(iso(due - 1));
    expect(await read<LoanDocument>(`/loans/${loan.id}`, reader.client)).toMatchObject({ status: 'active' });
    expect(await overdueIds('status:overdue')).not.toContain(loan.id);
    expect(await overdueIds('overdue:false')).toContain(loan.id);

    // At the due date it is overdue: the document, both filters, and renewing (control and request) agree.
    clock.set(iso(due));
    const overdue = await read<LoanDocument>(`/loans/${loan.id}`, reader.client);
    expect(overdue.status).toBe('overdue');
    expect(overdue.controls.renew).toBeUndefined();
    expect(await overdueIds('status:overdue')).toContain(loan.id);
    expect(await overdueIds('overdue:true')).toContain(loan.id);
    expect(await overdueIds('overdue:false')).not.toContain(loan.id);
    await expectError(await renew(reader.client, loan.id), 409, { message: /overdue/ });
    expect(await read<LoanDocument>(`/loans/${loan.id}`)).toMatchObject({ renewals: 0, due_at: iso(due) });

    clock.advance(2 * DAY_MS);
    const back = await returned(reader.client, loan.id);
    expect(back).toMatchObject({ status: 'returned', returned_at: iso(due + 2 * DAY_MS) });
    expect(await overdueIds('status:overdue')).not.toContain(loan.id);
  });

  it('an MCP agent reads the loan by the same clock: overdue, and no renew control', async () => {
    const reader = await member();
    const book = await addBook(t, `Timed Agent ${++serial}`, 2004, author);
    clock.set(START);
    const loan = await borrowed(reader.client, book);
    const agent = new Client({ name: 'clock-test', version: '1.0.0' });
    const inProcess = (url: string | URL, init?: RequestInit) => {
      const target = new URL(url);
      return reader.client.request(target.pathname + target.search, init);
    };
    await agent.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: inProcess }));
    try {
      const read = async () => {
        const result = await agent.callTool({ name: 'get', arguments: { url: `/loans/${loan.id}` } });
        expect(result.isError).toBeFalsy();
        return result.structuredContent as { data: { status: string }; controls: { name: string }[] };
      };
      const before = await read();
      expect(before.data.status).toBe('active');
      expect(before.controls.map((control) => control.name)).toContain('renew');
      clock.advance((LOAN_DAYS + 1) * DAY_MS);
      const after = await read();
      expect(after.data.status).toBe('overdue');
      expect(after.controls.map((control) => control.name)).not.toContain('renew');
    } finally {
      await agent.close();
    }
  });

  it('a renewal runs a loan period from the clock\u2019s time', async () => {
    const reader = await member();
    const book = await addBook(t, `Timed Renewal ${++serial}`, 2002, author);
    clock.set(START);
    const loan = await borrowed(reader.client, book);
    clock.advance(5 * DAY_MS);
    const response = await renew(reader.client, loan.id);
    expect(response.status).toBe(200);
    const renewed = await json<LoanDocument>(response);
    expect(renewed).toMatchObject({ renewals: 1, due_at: dueInDays(Date.parse(START) + 5 * DAY_MS, LOAN_DAYS) });
  });

  it('a ready hold is ready from the clock\u2019s time and expires when the clock passes ready_until, in reads and in the sweep', async () => {
    const [lender, first, second] = [await member(), await member(), await member()];
    const book = await addBook(t, `Timed Hold ${++serial}`, 2003, author);
    clock.set(START);
    const loan = await borrowed(lender.client, book);
    clock.advance(DAY_MS);
    const placed = await held(first.client, book);
    expect(placed.placed_at).toBe(iso(Date.parse(START) + DAY_MS));
    const waiting = await held(second.client, book);

    clock.advance(DAY_MS);
    const returnedAt = clock.now().getTime();
    await returned(lender.client, loan.id);
    const until = returnedAt + HOLD_DAYS * DAY_MS;
    expect(await read<HoldDocument>(`/holds/${placed.id}`, first.client)).toMatchObject({
      status: 'ready',
      ready_until: iso(until),
    });

    // Just before ready_until nothing has expired, for the sweep either.
    clock.set(iso(until - 1));
    expect(await expireReadyHolds(t.database.db, { holdDays: HOLD_DAYS, at: clock.now() })).toBe(0);
    expect((await read<BookDocument>(`/books/${book}`, first.client)).controls.borrow).toBeDefined();

    // At ready_until a read sees it expired at once, before any sweep: no borrow for its member.
    clock.set(iso(until));
    expect(await read<HoldDocument>(`/holds/${placed.id}`, first.client)).toMatchObject({
      status: 'expired',
      ended_at: iso(until),
    });
    const forFirst = await read<BookDocument>(`/books/${book}`, first.client);
    expect(forFirst.controls.borrow).toBeUndefined();
    const queue = await read<PageDoc<HoldDocument>>(`/books/${book}/holds?per_page=100`);
    expect(queue.data.map((hold) => hold.id)).toEqual([waiting.id]);

    // The sweep, at the clock's time, passes the copy on: ready for the next in line from now.
    expect(await expireReadyHolds(t.database.db, { holdDays: HOLD_DAYS, at: clock.now() })).toBe(1);
    expect(await read<HoldDocument>(`/holds/${waiting.id}`, second.client)).toMatchObject({
      status: 'ready',
      ready_until: iso(until + HOLD_DAYS * DAY_MS),
    });
    expect(await read<HoldDocument>(`/holds/${placed.id}`, first.client)).toMatchObject({ status: 'expired' });
    expect(await expireReadyHolds(t.database.db, { holdDays: HOLD_DAYS, at: clock.now() })).toBe(0);
  });
});
