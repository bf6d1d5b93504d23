/**
 * Branch calendars over HTTP, on PGlite and (with DATABASE_URL) PostgreSQL, in a time zone that is not UTC
 * (Europe/Paris, UTC+1 in December) on a fixed clock: a loan due on a closed weekday or a closure is due at
 * the end of the branch's next open day (days and hours loans, borrows and renewals, the explanation's due
 * date the loan's); closures as a resource (listed in date order, linked from the branch, added and deleted
 * by librarians, shown in the HTML view); an emergency closure moving exactly the active loans of its branch
 * due that day and saying how many; its refusals changing nothing; adding and deleting one as public events
 * of the change feed; a closure racing borrows never missed by them; and a hand-worked table of open days
 * and fines between a due date and a return, with the calendar loaded from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBranchCalendar } from '../src/db/queries/branch-calendars.js';
import { overdueFine } from '../src/domain/fines.js';
import { money } from '../src/domain/money.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';
import { borrowed, renewed, returned } from './support/circulation.js';
import { type FixedClock, fixedClock } from './support/clock.js';
import {
  type ClosureDocument,
  type CopyDocument,
  controlOf,
  type LinkDoc,
  type ListEntryDocument,
  type LoanDocument,
  type PageDoc,
  present,
  submit,
} from './support/documents.js';
import { expectError } from './support/errors.js';

const TIME_ZONE = 'Europe/Paris';
/** The last millisecond of a December day in Paris (UTC+1): 22:59:59.999 UTC. */
const endOf = (date: string) => `${date}T22:59:59.999Z`;

let t: TestCatalogue;
let clock: FixedClock;
let author: number;
let north: number;
let south: number;
let west: number;
let laptop: number;

async function created<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const response = await t.send('POST', path, body);
  expect(response.status, `${path} ${JSON.stringify(body)}: ${response.status}`).toBe(201);
  return json<T>(response);
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

let serial = 0;

/** A book whose one copy (the one it comes with) is at the branch, of the item type if named; a member to borrow it. */
async function bookAt(branchId: number, itemTypeId?: number) {
  const book = await addBook(t, `Calendar Book ${++serial}`, 2001, author);
  const [copy] = await json<CopyDocument[]>(await t.request(`/books/${book}/copies`));
  const moved = await t.send('PUT', `/copies/${present(copy, 'the book\u2019s copy').id}`, {
    branch_id: branchId,
    ...(itemTypeId !== undefined && { item_type_id: itemTypeId }),
  });
  expect(moved.status).toBe(200);
  const member = await addUser(t, `Member of ${book}`);
  return { book, member };
}

/** Lends a new book of the branch to a new member now, and answers the loan. */
async function lendAt(branchId: number, itemTypeId?: number): Promise<LoanDocument> {
  const { book, member } = await bookAt(branchId, itemTypeId);
  return borrowed(t.as(member.token), book);
}

async function dueOf(loanId: number): Promise<string> {
  return (await json<LoanDocument>(await t.request(`/loans/${loanId}`))).due_at;
}

async function closuresOf(branchId: number): Promise<PageDoc<ClosureDocument>> {
  const response = await t.request(`/branches/${branchId}/closures?page=1`);
  expect(response.status).toBe(200);
  return json<PageDoc<ClosureDocument>>(response);
}

async function close(branchId: number, date: string, reason?: string): Promise<ClosureDocument> {
  const page = await closuresOf(branchId);
  const response = await submit(t, controlOf(page, 'create'), { date, ...(reason !== undefined && { reason }) });
  expect(response.status, `closing ${branchId} on ${date}`).toBe(201);
  return json<ClosureDocument>(response);
}

beforeAll(async () => {
  // Tuesday 1 December 2026, 11:00 in Paris.
  clock = fixedClock('2026-12-01T10:00:00Z');
  t = await openTestCatalogue({ clock, timeZone: TIME_ZONE });
  author = await addAuthor(t, 'Calendar Author');
  north = (await created<ListEntryDocument>('/branches', { code: 'north', name: 'North', open_days: WEEKDAYS })).id;
  south = (await created<ListEntryDocument>('/branches', { code: 'south', name: 'South' })).id;
  west = (await created<ListEntryDocument>('/branches', { code: 'west', name: 'West', open_days: WEEKDAYS })).id;
  laptop = (await created<ListEntryDocument>('/item-types', { code: 'laptop', name: 'Laptop' })).id;
  await created('/loan-rules', { branch_id: north, loan_period: 4, renewal_period: 4, renewals_allowed: 3 });
  await created('/loan-rules', { branch_id: north, item_type_id: laptop, loan_period: 6, loan_period_unit: 'hours' });
  await created('/loan-rules', { branch_id: south, loan_period: 4 });
});
afterAll(() => t.close());

describe('due dates by the calendar of the branch lending', () => {
  let weekendLoan: LoanDocument;
  let weekendBorrower: string;

  it('a days loan due on a closed weekday is due at the end of the next open day, as the explanation said', async () => {
    const { book, member } = await bookAt(north);
    const as = t.as(member.token);
    weekendBorrower = member.token;
    const explained = await json<{ due_at: string }>(await as.request(`/books/${book}/explain`));
    // Tuesday + 4 days is Saturday; North opens Monday to Friday.
    expect(explained.due_at).toBe(endOf('2026-12-07'));
    weekendLoan = await borrowed(as, book);
    expect(weekendLoan.due_at).toBe(explained.due_at);
  });

  it('a days loan due on a closure moves to the next open day; so does a renewal', async () => {
    await close(north, '2026-12-08', 'Staff training');
    clock.set('2026-12-04T10:00:00Z'); // Friday
    const loan = await lendAt(north);
    // Friday + 4 days is Tuesday 8, closed: Wednesday 9.
    expect(loan.due_at).toBe(endOf('2026-12-09'));
    // Renewed on Friday for 4 days: Tuesday 8 again, closed.
    const again = await renewed(t.as(weekendBorrower), weekendLoan.id);
    expect(again.due_at).toBe(endOf('2026-12-09'));
  });

  it('an hours loan is due hours later on an open day, else at the end of the next open day', async () => {
    clock.set('2026-12-03T08:00:00Z'); // Thursday 09:00 in Paris
    expect((await lendAt(north, laptop)).due_at).toBe('2026-12-03T14:00:00.000Z');
    clock.set('2026-12-04T20:00:00Z'); // Friday 21:00: 6 hours on is Saturday 03:00
    expect((await lendAt(north, laptop)).due_at).toBe(endOf('2026-12-07'));
    clock.set('2026-12-07T20:00:00Z'); // Monday 21:00: 6 hours on is Tuesday 8, closed
    expect((await lendAt(north, laptop)).due_at).toBe(endOf('2026-12-09'));
  });

  it('a branch open every day keeps a days loan on its day', async () => {
    clock.set('2026-12-04T10:00:00Z');
    expect((await lendAt(south)).due_at).toBe(endOf('2026-12-08'));
  });
});

describe('closures as a resource', () => {
  it('are linked from the branch, listed in date order, and read by members without controls', async () => {
    clock.set('2026-12-09T10:00:00Z');
    const branch = await json<ListEntryDocument>(await t.request(`/branches/${north}`));
    expect(linkHref(branch, 'closures')).toBe(`/branches/${north}/closures?page=1&per_page=20`);
    await close(north, '2026-12-31');
    await close(north, '2026-12-24', 'Christmas Eve');
    const page = await closuresOf(north);
    expect(page.data.map((c) => c.date)).toEqual(['2026-12-08', '2026-12-24', '2026-12-31']);
    expect(page.data[1]).toMatchObject({ branch_id: north, reason: 'Christmas Eve' });
    const field = present(
      controlOf(page, 'create').fields.find((f) => f.name === 'date'),
      'the date field',
    );
    expect(field).toMatchObject({ type: 'date', required: true });

    const member = await addUser(t, 'Closure Reader');
    const read = await t.as(member.token).request(`/branches/${north}/closures?page=1`);
    expect(read.status).toBe(200);
    const seen = await json<PageDoc<ClosureDocument>>(read);
    expect(seen.data).toHaveLength(3);
    expect(seen.controls.create).toBeUndefined();
    const one = await json<ClosureDocument>(
      await t.as(member.token).request(`/branches/${north}/closures/${seen.data[0]?.id}`),
    );
    expect(one.controls.delete).toBeUndefined();
    await expectError(
      await t.as(member.token).send('POST', `/branches/${north}/closures`, { date: '2027-01-05' }),
      403,
    );
    expect((await closuresOf(north)).data).toHaveLength(3);
  });

  it('adding and deleting one are public events of the change feed, linking the branch', async () => {
    const member = await addUser(t, 'Feed Reader');
    const as = t.as(member.token);
    const start = await json<PageDoc>(await as.request('/changes?from=now'));
    const next = present(linkHref(start, 'next'), 'the feed from now');
    const closure = await close(south, '2027-03-01', 'Inventory');
    expect((await t.send('DELETE', `/branches/${south}/closures/${closure.id}`, {})).status).toBe(204);
    const page = await json<PageDoc<{ type: string; links: LinkDoc[] }>>(await as.request(next));
    expect(page.data.map((event) => [event.type, linkHref(event, 'branch')])).toEqual([
      ['branch.closed', `/branches/${south}`],
      ['branch.reopened', `/branches/${south}`],
    ]);
  });

  it('go with their branch when it is deleted, and no event says it reopened', async () => {
    const start = await json<PageDoc>(await t.request('/changes?from=now'));
    const next = present(linkHref(start, 'next'), 'the feed from now');
    const gone = await created<ListEntryDocument>('/branches', { code: 'gone', name: 'Gone' });
    await close(gone.id, '2027-04-01');
    expect((await t.send('DELETE', `/branches/${gone.id}`, {})).status).toBe(204);
    expect((await t.request(`/branches/${gone.id}/closures?page=1`)).status).toBe(404);
    const page = await json<PageDoc<{ type: string }>>(await t.request(next));
    expect(page.data.map((event) => event.type)).toEqual(['branch.closed']);
  });

  it('draws in the HTML view', async () => {
    const response = await t.request(`/branches/${north}/closures?page=1`, { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('2026-12-24');
    expect(html).toContain('Christmas Eve');
  });
});

describe('an emergency closure', () => {
  const loans: Record<string, LoanDocument> = {};

  it('moves exactly the active loans of its branch due that day, and says how many', async () => {
    clock.set('2026-12-10T10:00:00Z'); // Thursday: + 4 days is Monday 14
    loans.dayBefore = await lendAt(north);
    clock.set('2026-12-11T10:00:00Z'); // Friday: + 4 days is Tuesday 15
    loans.due = await lendAt(north);
    loans.returned = await lendAt(north);
    loans.otherBranch = await lendAt(south);
    clock.set('2026-12-12T10:00:00Z'); // Saturday: + 4 days is Wednesday 16
    loans.dayAfter = await lendAt(north);
    clock.set('2026-12-15T07:00:00Z'); // Tuesday 08:00: a laptop due at 14:00
    loans.hours = await lendAt(north, laptop);
    await returned(t, present(loans.returned, 'the loan returned').id);
    for (const [name, date] of [
      ['dayBefore', '2026-12-14'],
      ['due', '2026-12-15'],
      ['returned', '2026-12-15'],
      ['otherBranch', '2026-12-15'],
      ['dayAfter', '2026-12-16'],
    ] as const) {
      expect(loans[name]?.due_at, name).toBe(endOf(date));
    }
    expect(loans.hours?.due_at).toBe('2026-12-15T13:00:00.000Z');

    clock.set('2026-12-15T08:30:00Z');
    const closure = await close(north, '2026-12-15', 'Burst pipe');
    expect(closure).toMatchObject({ date: '2026-12-15', reason: 'Burst pipe', moved_loans: 2 });
    expect(await dueOf(present(loans.due, 'due').id)).toBe(endOf('2026-12-16'));
    expect(await dueOf(present(loans.hours, 'hours').id)).toBe(endOf('2026-12-16'));
    expect(await dueOf(present(loans.dayBefore, 'before').id)).toBe(endOf('2026-12-14'));
    expect(await dueOf(present(loans.dayAfter, 'after').id)).toBe(endOf('2026-12-16'));
    expect(await dueOf(present(loans.returned, 'returned').id)).toBe(endOf('2026-12-15'));
    expect(await dueOf(present(loans.otherBranch, 'south').id)).toBe(endOf('2026-12-15'));
  });

  it('refuses a past date, a bad date, a date closed already and an unknown branch, changing nothing', async () => {
    const dues = async () => Promise.all(Object.values(loans).map((loan) => dueOf(loan.id)));
    const before = { closures: await closuresOf(north), dues: await dues() };
    const path = `/branches/${north}/closures`;
    await expectError(await t.send('POST', path, { date: '2026-12-14' }), 422, { details: ['date'] });
    await expectError(await t.send('POST', path, { date: '2027-02-30' }), 422, { details: ['date'] });
    await expectError(await t.send('POST', path, { date: 'next week' }), 400, { details: ['date'] });
    await expectError(await t.send('POST', path, { reason: 'no date' }), 400, { details: ['date'] });
    await expectError(await t.send('POST', path, { date: '2026-12-15' }), 409);
    await expectError(await t.send('POST', '/branches/999999/closures', { date: '2027-01-05' }), 404);
    await expectError(await t.request('/branches/999999/closures?page=1'), 404);
    expect((await closuresOf(north)).data).toEqual(before.closures.data);
    expect(await dues()).toEqual(before.dues);
  });

  it('deleted, moves nothing back; new loans may fall due that day again', async () => {
    const page = await closuresOf(north);
    const closure = present(
      page.data.find((c) => c.date === '2026-12-15'),
      'the closure of the 15th',
    );
    const one = await json<ClosureDocument>(await t.request(`/branches/${north}/closures/${closure.id}`));
    expect((await submit(t, controlOf(one, 'delete'))).status).toBe(204);
    expect((await t.request(`/branches/${north}/closures/${closure.id}`)).status).toBe(404);
    expect(await dueOf(present(loans.due, 'due').id)).toBe(endOf('2026-12-16'));
    clock.set('2026-12-11T10:00:00Z');
    expect((await lendAt(north)).due_at).toBe(endOf('2026-12-15'));
  });
});

describe('open days between a due date and a return, by a calendar loaded from the database', () => {
  it('counts open weekdays after the due day, less closures, and fines them beyond the grace days', async () => {
    clock.set('2026-12-15T10:00:00Z');
    await close(west, '2026-12-24');
    await close(west, '2026-12-25');
    await close(west, '2027-01-01');
    const calendar = present(
      await findBranchCalendar(t.database.db, {
        branchId: west,
        timeZone: TIME_ZONE,
        from: '2026-12-21',
        to: '2027-01-31',
      }),
      'the west calendar',
    );
    const due = new Date(endOf('2026-12-21')); // Monday 21 December, end of day in Paris
    const terms = { finePerDay: money(25, 'EUR'), graceDays: 1, fineCap: money(140, 'EUR') };
    // Returned at (UTC) → open days overdue, fine in cents, capped.
    const table: [string, number, number, boolean][] = [
      ['2026-12-21T15:00:00Z', 0, 0, false], // Monday, the due day itself
      ['2026-12-22T10:00:00Z', 1, 0, false], // Tuesday: within the grace day
      ['2026-12-22T23:30:00Z', 2, 25, false], // Wednesday 00:30 in Paris, still Tuesday in UTC
      ['2026-12-23T10:00:00Z', 2, 25, false], // Wednesday
      ['2026-12-24T10:00:00Z', 2, 25, false], // Thursday: closed
      ['2026-12-25T10:00:00Z', 2, 25, false], // Friday: closed
      ['2026-12-27T10:00:00Z', 2, 25, false], // the weekend
      ['2026-12-28T10:00:00Z', 3, 50, false], // Monday
      ['2027-01-01T10:00:00Z', 6, 125, false], // Tuesday 29, Wednesday 30, Thursday 31; Friday 1 closed
      ['2027-01-04T10:00:00Z', 7, 140, true], // Monday 4: 150 cut to the cap
    ];
    for (const [back, overdueDays, fine, capped] of table) {
      expect(overdueFine(terms, due, new Date(back), calendar), back).toMatchObject({
        overdueDays,
        amount: money(fine, 'EUR'),
        capped,
      });
    }
  });

  it('reads only the closures in the span asked for', async () => {
    const calendar = present(
      await findBranchCalendar(t.database.db, { branchId: west, timeZone: TIME_ZONE, from: '2026-12-25' }),
      'the west calendar',
    );
    expect(calendar.closedDays.size).toBe(2);
    expect(await findBranchCalendar(t.database.db, { branchId: 999999, timeZone: TIME_ZONE })).toBeUndefined();
  });
});

describe('a closure added while loans are made', () => {
  it('no loan falls due on it: each is either moved by it or computed with it', async () => {
    clock.set('2026-12-17T10:00:00Z'); // Thursday: 4 days on is Monday 21 at South, open every day
    const borrowers: Awaited<ReturnType<typeof bookAt>>[] = [];
    for (let n = 0; n < 8; n++) borrowers.push(await bookAt(south));
    // The closure sent amid the borrows: some may commit before it (and be moved), some after (and see it).
    const lend = ({ book, member }: Awaited<ReturnType<typeof bookAt>>) => borrowed(t.as(member.token), book);
    const [before, closure, after] = await Promise.all([
      Promise.all(borrowers.slice(0, 4).map(lend)),
      t.send('POST', `/branches/${south}/closures`, { date: '2026-12-21', reason: 'Power cut' }),
      Promise.all(borrowers.slice(4).map(lend)),
    ]);
    const loans = [...before, ...after];
    expect(closure.status).toBe(201);
    const { moved_loans } = await json<ClosureDocument>(closure);
    expect(moved_loans).toBeGreaterThanOrEqual(0);
    expect(moved_loans).toBeLessThanOrEqual(loans.length);
    const dues = await Promise.all(loans.map((loan) => dueOf(loan.id)));
    expect(dues).toEqual(loans.map(() => endOf('2026-12-22')));
  });
});
