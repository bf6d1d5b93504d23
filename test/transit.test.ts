/**
 * Branches and transit over HTTP, on PGlite and (with DATABASE_URL) PostgreSQL, on a fixed business clock:
 * a hold is collected at a pickup branch (the borrower's home branch unless named); a copy returned at a
 * branch goes to the first waiting hold there or travels to its pickup branch, else home unless its loan
 * floats; a librarian receives a copy in transit, and a hold it travelled for is ready from then on.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrowed, held } from './support/circulation.js';
import { DAY_MS, fixedClock } from './support/clock.js';
import {
  type BookDocument,
  type ChangesPageDocument,
  type CopyDocument,
  controlOf,
  type HoldDocument,
  type LoanDocument,
  remoteOptions,
  submit,
} from './support/documents.js';
import { expectError } from './support/errors.js';

const START = '2026-06-01T09:00:00.000Z';
const HOLD_DAYS = 7;

describe('branches and transit', () => {
  const clock = fixedClock(START);
  let t: TestCatalogue;
  let author: number;
  const branch = { main: 0, east: 0, west: 0 };
  let floatingType: number;
  /** A member at home at East, one at home at Main, and one who lends (reads) first. */
  let eastMember: { id: number; token: string };
  let mainMember: { id: number; token: string };
  let reader: { id: number; token: string };

  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
    rowsOf<T>(await t.database.db.execute(query))[0] as T;

  async function insertBranch(code: string, name: string): Promise<number> {
    return (await one<{ id: number }>(sql`insert into branches (code, name) values (${code}, ${name}) returning id`))
      .id;
  }

  async function memberAt(name: string, home: number) {
    const member = await addUser(t, name, 'member');
    await t.database.db.execute(sql`update users set home_branch_id = ${home} where id = ${member.id}`);
    return member;
  }

  /** A book whose one copy is at home at Main; answers the book and its copy. */
  async function bookAtMain(title: string): Promise<{ bookId: number; copyId: number }> {
    const bookId = await addBook(t, title, 2001, author);
    const copy = await one<{ id: number }>(sql`select id from copies where book_id = ${bookId}`);
    return { bookId, copyId: copy.id };
  }

  const copyOf = async (client: TestClient, id: number) => json<CopyDocument>(await client.request(`/copies/${id}`));
  const holdOf = async (id: number) => json<HoldDocument>(await t.request(`/holds/${id}`));
  const bookOf = async (id: number) => json<BookDocument>(await t.request(`/books/${id}`));

  /** Returns the loan at a branch (the loan's own unless named), as a librarian at that desk does. */
  async function returnedAt(loanId: number, branchId?: number): Promise<LoanDocument> {
    const body = branchId === undefined ? { status: 'returned' } : { status: 'returned', branch_id: branchId };
    const response = await t.send('PATCH', `/loans/${loanId}`, body);
    expect(response.status, await response.clone().text()).toBe(200);
    return json<LoanDocument>(response);
  }

  /** Lends the book to `reader` (at Main, the librarian's desk) so that no copy is on the shelf. */
  const lentToReader = (bookId: number) => borrowed(t, bookId, { borrower_id: reader.id });

  /** Where the feed stands now, to read what happens from here on. */
  async function feedNow(client: TestClient): Promise<string> {
    const page = await json<ChangesPageDocument>(await client.request('/changes?from=now'));
    return linkHref(page, 'next') as string;
  }
  async function eventsSince(client: TestClient, next: string): Promise<string[]> {
    const page = await json<ChangesPageDocument>(await client.request(next));
    return page.data.map((event) => `${event.type} ${event.links[0]?.href}`);
  }

  beforeAll(async () => {
    t = await openTestCatalogue({ clock, access: { holdDays: HOLD_DAYS } });
    author = await addAuthor(t, 'Transit Author');
    branch.main = (await one<{ id: number }>(sql`select id from branches where code = 'main'`)).id;
    branch.east = await insertBranch('east', 'East branch');
    branch.west = await insertBranch('west', 'West branch');
    floatingType = (
      await one<{ id: number }>(sql`insert into item_types (code, name) values ('float', 'Floating') returning id`)
    ).id;
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, floating) values (${floatingType}, true)`);
    eastMember = await memberAt('Eve East', branch.east);
    mainMember = await memberAt('Mia Main', branch.main);
    reader = await memberAt('Rex Reader', branch.main);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a hold is collected at the borrower\u2019s home branch unless they name another', async () => {
    const { bookId } = await bookAtMain('Pickup Default');
    await lentToReader(bookId);
    const book = await json<BookDocument>(await t.as(eastMember.token).request(`/books/${bookId}`));
    const field = controlOf(book, 'hold').fields.find((f) => f.name === 'pickup_branch_id');
    expect(field).toMatchObject({ type: 'integer', required: false });
    expect(remoteOptions(field)?.href).toMatch(/^\/branches\?/);

    const atHome = await held(t.as(eastMember.token), bookId);
    expect(atHome).toMatchObject({ status: 'waiting', pickup_branch_id: branch.east, position: 1 });
    expect(linkHref(atHome, 'pickup_branch')).toBe(`/branches/${branch.east}`);

    const chosen = await submit(t.as(mainMember.token), controlOf(book, 'hold'), { pickup_branch_id: branch.west });
    expect(chosen.status).toBe(201);
    expect(await json<HoldDocument>(chosen)).toMatchObject({ pickup_branch_id: branch.west, position: 2 });
  });

  it('a pickup branch that does not exist is a 422 naming it, and no hold is placed', async () => {
    const { bookId } = await bookAtMain('Pickup Nowhere');
    await lentToReader(bookId);
    const before = await one<{ n: number }>(sql`select count(*)::int as n from holds where book_id = ${bookId}`);
    await expectError(
      await t.as(eastMember.token).send('POST', `/books/${bookId}/holds`, { pickup_branch_id: 999999 }),
      422,
      { details: ['pickup_branch_id'] },
    );
    await expectError(
      await t.as(eastMember.token).send('POST', `/books/${bookId}/holds`, { pickup_branch_id: 'east' }),
      400,
      { details: ['pickup_branch_id'] },
    );
    expect(await one<{ n: number }>(sql`select count(*)::int as n from holds where book_id = ${bookId}`)).toEqual(
      before,
    );
  });

  it('returned at the hold\u2019s pickup branch, the copy is ready there at once', async () => {
    const { bookId, copyId } = await bookAtMain('Returned Where Wanted');
    const loan = await lentToReader(bookId);
    const hold = await held(t.as(eastMember.token), bookId);
    await returnedAt(loan.id, branch.east);

    const ready = await holdOf(hold.id);
    expect(ready).toMatchObject({ status: 'ready', copy_id: copyId, pickup_branch_id: branch.east });
    expect(ready.ready_until).toBe(new Date(clock.now().getTime() + HOLD_DAYS * DAY_MS).toISOString());
    const copy = await copyOf(t, copyId);
    expect(copy).toMatchObject({ status: 'on_hold', location_branch_id: branch.east, transit_to_branch_id: null });
    expect(copy.controls.receive).toBeUndefined();
  });

  it('returned elsewhere, the copy travels to the pickup branch; received there, the hold is ready', async () => {
    const { bookId, copyId } = await bookAtMain('Sent To East');
    const loan = await lentToReader(bookId);
    const hold = await held(t.as(eastMember.token), bookId);
    const publicFeed = await feedNow(t.anonymous);
    const librarianFeed = await feedNow(t);
    const otherFeed = await feedNow(t.as(mainMember.token));
    await returnedAt(loan.id); // at Main, where it was lent

    const travelling = await holdOf(hold.id);
    expect(travelling).toMatchObject({ status: 'in_transit', copy_id: copyId, ready_until: null, position: null });
    expect(linkHref(travelling, 'copy')).toBe(`/copies/${copyId}`);
    const copy = await copyOf(t, copyId);
    expect(copy).toMatchObject({
      status: 'in_transit',
      branch_id: branch.main,
      location_branch_id: branch.main,
      transit_to_branch_id: branch.east,
    });
    expect(linkHref(copy, 'location')).toBe(`/branches/${branch.main}`);
    expect(linkHref(copy, 'destination')).toBe(`/branches/${branch.east}`);
    expect((await bookOf(bookId)).copies_available).toBe(0);
    // Only librarians receive; members read the copy without the control.
    expect((await copyOf(t.as(eastMember.token), copyId)).controls.receive).toBeUndefined();
    await expectError(await t.as(eastMember.token).request(`/copies/${copyId}/receipts`, { method: 'POST' }), 403);

    // The copy's movement is public; the hold's is its borrower's and librarians'.
    const sent = [`loan.ended /loans/${loan.id}`, `copy.sent /copies/${copyId}`, `hold.in_transit /holds/${hold.id}`];
    expect((await eventsSince(t, librarianFeed)).sort()).toEqual([...sent].sort());
    expect(await eventsSince(t.anonymous, publicFeed)).toEqual([`copy.sent /copies/${copyId}`]);
    expect(await eventsSince(t.as(mainMember.token), otherFeed)).toEqual([`copy.sent /copies/${copyId}`]);

    clock.advance(2 * DAY_MS);
    const receivedFeed = await feedNow(t.anonymous);
    const received = await submit(t, controlOf(copy, 'receive'));
    expect(received.status).toBe(200);
    expect(await json<CopyDocument>(received)).toMatchObject({
      status: 'on_hold',
      location_branch_id: branch.east,
      transit_to_branch_id: null,
    });
    const ready = await holdOf(hold.id);
    expect(ready).toMatchObject({ status: 'ready', copy_id: copyId });
    expect(ready.ready_until).toBe(new Date(clock.now().getTime() + HOLD_DAYS * DAY_MS).toISOString());
    expect(await eventsSince(t.anonymous, receivedFeed)).toEqual([`copy.received /copies/${copyId}`]);

    // Received once: a second receipt is refused, and the control is gone.
    await expectError(await t.request(`/copies/${copyId}/receipts`, { method: 'POST' }), 409, {
      message: /not in transit/,
    });
    const lent = await borrowed(t.as(eastMember.token), bookId);
    expect(lent.copy_id).toBe(copyId);
    expect(await holdOf(hold.id)).toMatchObject({ status: 'fulfilled', loan_id: lent.id });
  });

  it('queues strictly first come, first served: a local hold does not jump ahead of one collected elsewhere', async () => {
    const { bookId, copyId } = await bookAtMain('First Come First Served');
    const loan = await lentToReader(bookId);
    const first = await held(t.as(eastMember.token), bookId);
    const second = await held(t.as(mainMember.token), bookId);
    await returnedAt(loan.id, branch.main);
    expect(await holdOf(first.id)).toMatchObject({ status: 'in_transit', copy_id: copyId });
    expect(await holdOf(second.id)).toMatchObject({ status: 'waiting', position: 1 });
  });

  it('a hold cancelled while its copy travels: on arrival the copy goes to the next in line', async () => {
    const { bookId, copyId } = await bookAtMain('Cancelled On The Way');
    const loan = await lentToReader(bookId);
    const first = await held(t.as(eastMember.token), bookId);
    const second = await held(t.as(mainMember.token), bookId);
    await returnedAt(loan.id, branch.west);
    expect(await holdOf(first.id)).toMatchObject({ status: 'in_transit', copy_id: copyId });
    const cancelled = await t.as(eastMember.token).send('PATCH', `/holds/${first.id}`, { status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    // Still on its way to East; received there, it is sent on to Main, where the next hold is collected.
    expect(await copyOf(t, copyId)).toMatchObject({ status: 'in_transit', transit_to_branch_id: branch.east });
    expect(await holdOf(second.id)).toMatchObject({ status: 'waiting', position: 1 });
    expect((await t.request(`/copies/${copyId}/receipts`, { method: 'POST' })).status).toBe(200);
    expect(await copyOf(t, copyId)).toMatchObject({
      status: 'in_transit',
      location_branch_id: branch.east,
      transit_to_branch_id: branch.main,
    });
    expect(await holdOf(second.id)).toMatchObject({ status: 'in_transit', copy_id: copyId });
    expect((await t.request(`/copies/${copyId}/receipts`, { method: 'POST' })).status).toBe(200);
    expect(await holdOf(second.id)).toMatchObject({ status: 'ready', copy_id: copyId });
  });

  it('returned away from home with nobody waiting, the copy goes home; received there, it is on the shelf', async () => {
    const { bookId, copyId } = await bookAtMain('Going Home');
    const loan = await lentToReader(bookId);
    await returnedAt(loan.id, branch.west);
    const travelling = await copyOf(t, copyId);
    expect(travelling).toMatchObject({
      status: 'in_transit',
      location_branch_id: branch.west,
      transit_to_branch_id: branch.main,
    });
    const book = await bookOf(bookId);
    expect(book).toMatchObject({ copies_total: 1, copies_available: 0 });
    // Nothing to lend while it travels: the book offers a hold, not a borrow.
    expect(book.controls.borrow).toBeUndefined();

    const received = await submit(t, controlOf(travelling, 'receive'));
    expect(received.status).toBe(200);
    expect(await json<CopyDocument>(received)).toMatchObject({
      status: 'available',
      location_branch_id: branch.main,
      transit_to_branch_id: null,
    });
    expect((await bookOf(bookId)).copies_available).toBe(1);
  });

  it('a floating loan\u2019s copy stays where it is returned', async () => {
    const { bookId, copyId } = await bookAtMain('Floats Away');
    await t.database.db.execute(sql`update copies set item_type_id = ${floatingType} where id = ${copyId}`);
    const loan = await lentToReader(bookId);
    await returnedAt(loan.id, branch.east);
    const copy = await copyOf(t, copyId);
    expect(copy).toMatchObject({
      status: 'available',
      branch_id: branch.main,
      location_branch_id: branch.east,
      transit_to_branch_id: null,
    });
    expect(linkHref(copy, 'destination')).toBeUndefined();
    expect((await bookOf(bookId)).copies_available).toBe(1);
  });

  it('two receipts of one copy at once: one 200, one 409, and the copy arrives once', async () => {
    const { bookId, copyId } = await bookAtMain('Received Twice');
    const loan = await lentToReader(bookId);
    await returnedAt(loan.id, branch.east);
    const feed = await feedNow(t.anonymous);
    const answers = await Promise.all([1, 2].map(() => t.request(`/copies/${copyId}/receipts`, { method: 'POST' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await eventsSince(t.anonymous, feed)).toEqual([`copy.received /copies/${copyId}`]);
    expect(await copyOf(t, copyId)).toMatchObject({ status: 'available', location_branch_id: branch.main });
  });

  it('receiving a copy that is not in transit is refused, and not offered', async () => {
    const { copyId } = await bookAtMain('Never Sent');
    const copy = await copyOf(t, copyId);
    expect(copy.status).toBe('available');
    expect(copy.controls.receive).toBeUndefined();
    await expectError(await t.request(`/copies/${copyId}/receipts`, { method: 'POST' }), 409, {
      message: /not in transit/,
    });
    await expectError(await t.request('/copies/999999/receipts', { method: 'POST' }), 404);
    expect(await copyOf(t, copyId)).toMatchObject({ status: 'available', location_branch_id: branch.main });
  });

  it('a return at a branch that does not exist is a 422 naming it, and the loan stays active', async () => {
    const { bookId } = await bookAtMain('Returned Nowhere');
    const loan = await lentToReader(bookId);
    await expectError(await t.send('PATCH', `/loans/${loan.id}`, { status: 'returned', branch_id: 999999 }), 422, {
      details: ['branch_id'],
    });
    expect((await json<LoanDocument>(await t.request(`/loans/${loan.id}`))).returned_at).toBeNull();
    // The control offers the branch that lent it, and the branches to choose from.
    const offered = controlOf(await json<LoanDocument>(await t.request(`/loans/${loan.id}`)), 'return');
    const field = offered.fields.find((f) => f.name === 'branch_id');
    expect(field?.value).toBe(branch.main);
    expect(remoteOptions(field)?.href).toMatch(/^\/branches\?/);
  });
});
