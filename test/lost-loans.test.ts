/**
 * Lost items: the job declares a loan lost exactly when it is its terms' `lost_after_days` past due (not a
 * millisecond earlier), charges its `lost_charge` and its overdue fine up to then (capped as its terms say)
 * into the borrower's account, and changes nothing when run again; loans whose terms set no limit are never
 * lost. The loan reads `lost` (document, listing filter), cannot be renewed, may still be returned without a
 * new charge, and its `loan.lost` event is private like the loan. Business time is a fixed clock; PGlite, and
 * PostgreSQL with DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { declareLostLoans } from '../src/db/queries/lost-loans.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrowed, renew, returned } from './support/circulation.js';
import { DAY_MS, type FixedClock, fixedClock } from './support/clock.js';
import type { ChangesPageDocument, LoanDocument, PageDoc } from './support/documents.js';
import { expectError } from './support/errors.js';

const START = '2031-03-03T10:00:00.000Z';
const LOST_AFTER_DAYS = 30;
const LOST_CHARGE = 2500;
const FINE_PER_DAY = 20;
const GRACE_DAYS = 2;
const DVD_FINE_PER_DAY = 100;
const DVD_FINE_CAP = 1500;
const CURRENCY = 'EUR';

const iso = (ms: number) => new Date(ms).toISOString();

interface Entry {
  kind: string;
  amount: number;
  currency: string;
  user_id: number;
  created_at: string;
}

describe('lost items', () => {
  let t: TestCatalogue;
  let clock: FixedClock;
  let author: number;
  let dvd: number;
  let reference: number;
  let serial = 0;

  const run = () => declareLostLoans(t.database.db, { at: clock.now(), timeZone: 'UTC', currency: CURRENCY });

  async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
    return rowsOf<T>(await t.database.db.execute(statement));
  }

  const entriesOf = (loanId: number) =>
    query<Entry>(sql`select kind, amount, currency, user_id,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
      from account_entries where loan_id = ${loanId} order by kind`);

  async function member() {
    const user = await addUser(t, `Lost Member ${++serial}`, 'member');
    return { id: user.id, client: t.as(user.token) };
  }

  /** A book whose one copy is of the item type given (the default, Book, when absent), lent to a new member at START. */
  async function lent(itemType?: number) {
    const reader = await member();
    const book = await addBook(t, `Lost Book ${++serial}`, 2001, author);
    if (itemType !== undefined) {
      await t.database.db.execute(sql`update copies set item_type_id = ${itemType} where book_id = ${book}`);
    }
    clock.set(START);
    const loan = await borrowed(reader.client, book);
    return { reader, loan, threshold: Date.parse(loan.due_at) + LOST_AFTER_DAYS * DAY_MS };
  }

  async function read<T>(path: string, client: TestClient = t): Promise<T> {
    const response = await client.request(path);
    expect(response.status, path).toBe(200);
    return json<T>(response);
  }

  async function events(client: TestClient): Promise<{ type: string; href: string }[]> {
    const seen: { type: string; href: string }[] = [];
    for (let href: string | undefined = '/changes'; href; ) {
      const page: ChangesPageDocument = await read<ChangesPageDocument>(href, client);
      if (page.data.length === 0) break;
      seen.push(...page.data.map((event) => ({ type: event.type, href: event.links[0]?.href ?? '' })));
      href = page.links.find((link) => link.rel === 'next')?.href;
    }
    return seen;
  }

  beforeAll(async () => {
    clock = fixedClock(START);
    t = await openTestCatalogue({ clock });
    author = await addAuthor(t, 'Lost Author');
    // The default rule: lost 30 days past due for 25.00, fined 0.20 an open day beyond 2 days of grace, no cap.
    await t.database.db.execute(sql`update loan_rules set lost_after_days = ${LOST_AFTER_DAYS},
      lost_charge = ${LOST_CHARGE}, fine_per_day = ${FINE_PER_DAY}, grace_days = ${GRACE_DAYS},
      no_limit = array_remove(no_limit, 'lost_after_days')
      where patron_category_id is null and item_type_id is null and branch_id is null`);
    [{ id: dvd }] = (await query<{ id: number }>(
      sql`insert into item_types (code, name) values ('dvd', 'DVD') returning id`,
    )) as [{ id: number }];
    [{ id: reference }] = (await query<{ id: number }>(
      sql`insert into item_types (code, name) values ('reference', 'Reference') returning id`,
    )) as [{ id: number }];
    // DVDs: 1.00 a day, capped at 15.00. Reference items: never lost (no limit).
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, fine_per_day, fine_cap)
      values (${dvd}, ${DVD_FINE_PER_DAY}, ${DVD_FINE_CAP})`);
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, no_limit)
      values (${reference}, '{lost_after_days}')`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('declares a loan lost at its threshold and not a millisecond earlier, charging the lost item and its fine', async () => {
    const { reader, loan, threshold } = await lent();

    clock.set(iso(threshold - DAY_MS));
    await run();
    clock.set(iso(threshold - 1));
    await run();
    expect(await read<LoanDocument>(`/loans/${loan.id}`, reader.client)).toMatchObject({
      status: 'overdue',
      lost_at: null,
    });
    expect(await entriesOf(loan.id)).toEqual([]);

    clock.set(iso(threshold));
    const declared = await run();
    expect(declared.loans).toBeGreaterThanOrEqual(1);
    const lost = await read<LoanDocument>(`/loans/${loan.id}`, reader.client);
    expect(lost).toMatchObject({ status: 'lost', lost_at: iso(threshold), returned_at: null });
    // Open every day: 30 days overdue, 2 of grace, 28 charged at 0.20.
    expect(await entriesOf(loan.id)).toEqual([
      { kind: 'lost_item', amount: LOST_CHARGE, currency: CURRENCY, user_id: reader.id, created_at: iso(threshold) },
      {
        kind: 'overdue_fine',
        amount: (LOST_AFTER_DAYS - GRACE_DAYS) * FINE_PER_DAY,
        currency: CURRENCY,
        user_id: reader.id,
        created_at: iso(threshold),
      },
    ]);
    const [account] = await query<{ balance: number }>(sql`select balance from accounts where user_id = ${reader.id}`);
    expect(account?.balance).toBe(LOST_CHARGE + (LOST_AFTER_DAYS - GRACE_DAYS) * FINE_PER_DAY);
  });

  it('caps the fine as the loan\u2019s terms say', async () => {
    const { loan, threshold } = await lent(dvd);
    clock.set(iso(threshold));
    await run();
    const entries = await entriesOf(loan.id);
    // 28 days at 1.00 would be 28.00: the cap, 15.00, is charged.
    expect(entries.map(({ kind, amount }) => ({ kind, amount }))).toEqual([
      { kind: 'lost_item', amount: LOST_CHARGE },
      { kind: 'overdue_fine', amount: DVD_FINE_CAP },
    ]);
  });

  it('a second run changes nothing: no loan declared again, no charge twice', async () => {
    const { loan, threshold } = await lent();
    clock.set(iso(threshold + DAY_MS));
    await run();
    const before = await query<{ n: number; total: number }>(
      sql`select count(*)::int as n, coalesce(sum(amount), 0)::int as total from account_entries`,
    );
    const lostAt = (await read<LoanDocument>(`/loans/${loan.id}`)).lost_at;

    clock.set(iso(threshold + 5 * DAY_MS));
    expect(await run()).toEqual({ loans: 0, lostItemCharges: 0, overdueFines: 0 });
    expect(
      await query<{ n: number; total: number }>(
        sql`select count(*)::int as n, coalesce(sum(amount), 0)::int as total from account_entries`,
      ),
    ).toEqual(before);
    expect((await read<LoanDocument>(`/loans/${loan.id}`)).lost_at).toBe(lostAt);
  });

  it('in small batches, every loan past its threshold is declared once, across windows of ids with none', async () => {
    const loans = [await lent(), await lent()];
    // The job reads ids a window at a time (batch size × workers × 4, here 16): a gap of 100 ids leaves windows
    // with no loan between these and the next.
    await t.database.db.execute(
      sql`select setval(pg_get_serial_sequence('loans', 'id'), (select max(id) + 100 from loans))`,
    );
    loans.push(await lent(), await lent(), await lent());
    const latest = Math.max(...loans.map((each) => each.threshold));
    clock.set(iso(latest));
    const declared = await declareLostLoans(t.database.db, {
      at: clock.now(),
      timeZone: 'UTC',
      currency: CURRENCY,
      batchSize: 2,
    });
    expect(declared.loans).toBeGreaterThanOrEqual(loans.length);
    expect(declared.lostItemCharges).toBe(declared.loans);
    for (const { loan } of loans) {
      expect((await read<LoanDocument>(`/loans/${loan.id}`)).status).toBe('lost');
      expect((await entriesOf(loan.id)).map((entry) => entry.kind)).toEqual(['lost_item', 'overdue_fine']);
    }
  });

  it('two runs at once, each of four workers, beside payments into the same accounts, declare and charge every loan once', async () => {
    const readers = [await member(), await member(), await member(), await member()];
    const loans: { reader: { id: number }; loan: { id: number }; threshold: number }[] = [];
    for (const reader of readers) {
      expect(
        (await t.send('POST', `/users/${reader.id}/account/charges`, { amount: 500, reason: 'a card' })).status,
      ).toBe(201);
      for (let n = 0; n < 3; n++) {
        const book = await addBook(t, `Lost Book ${++serial}`, 2001, author);
        clock.set(START);
        const loan = await borrowed(reader.client, book);
        loans.push({ reader, loan, threshold: Date.parse(loan.due_at) + LOST_AFTER_DAYS * DAY_MS });
      }
    }
    clock.set(iso(Math.max(...loans.map((each) => each.threshold))));
    // Four readers of consecutive ids, four workers: each worker of a run has one reader's loans, which the
    // other run's worker of the same share races it for.
    const settings = { at: clock.now(), timeZone: 'UTC', currency: CURRENCY, batchSize: 2, workers: 4 };
    const [first, second, ...payments] = await Promise.all([
      declareLostLoans(t.database.db, settings),
      declareLostLoans(t.database.db, settings),
      ...readers.map((reader) => t.send('POST', `/users/${reader.id}/account/payments`, { amount: 100 })),
    ]);
    expect(payments.map((response) => response.status)).toEqual(readers.map(() => 201));
    for (const { loan } of loans) {
      expect((await read<LoanDocument>(`/loans/${loan.id}`)).status).toBe('lost');
      expect((await entriesOf(loan.id)).map((entry) => entry.kind)).toEqual(['lost_item', 'overdue_fine']);
    }
    // Between them the two runs declared each loan once (other tests' loans may be past their threshold too).
    expect(first.loans + second.loans).toBeGreaterThanOrEqual(loans.length);
    expect(first.lostItemCharges + second.lostItemCharges).toBe(first.loans + second.loans);
    expect(await run()).toEqual({ loans: 0, lostItemCharges: 0, overdueFines: 0 });
    for (const reader of readers) {
      const [account] = await query<{ balance: number; entries: number }>(sql`select a.balance,
        (select sum(case when e.kind in ('payment', 'waiver') then -e.amount else e.amount end)::int
          from account_entries e where e.user_id = a.user_id) as entries
        from accounts a where a.user_id = ${reader.id}`);
      // The card, three lost items and their fines, less the payment: not a cent lost to the races.
      expect(account?.balance).toBe(account?.entries);
      expect(account?.balance).toBeGreaterThan(500 - 100 + 3 * LOST_CHARGE);
    }
  });

  it('a loan whose terms set no limit is never lost', async () => {
    const { loan, threshold } = await lent(reference);
    clock.set(iso(threshold + 3650 * DAY_MS));
    await run();
    expect(await read<LoanDocument>(`/loans/${loan.id}`)).toMatchObject({ status: 'overdue', lost_at: null });
    expect(await entriesOf(loan.id)).toEqual([]);
  });

  it('a lost loan is listed as lost, not overdue; it cannot be renewed; its return is taken and charges nothing more', async () => {
    const { reader, loan, threshold } = await lent();
    clock.set(iso(threshold));
    await run();
    const lostIds = (await read<PageDoc<LoanDocument>>('/loans?filter=status:lost&per_page=100')).data.map(
      (each) => each.id,
    );
    expect(lostIds).toContain(loan.id);
    const overdueIds = (await read<PageDoc<LoanDocument>>('/loans?filter=status:overdue&per_page=100')).data.map(
      (each) => each.id,
    );
    expect(overdueIds).not.toContain(loan.id);

    const lost = await read<LoanDocument>(`/loans/${loan.id}`, reader.client);
    expect(lost.controls.renew).toBeUndefined();
    expect(lost.controls.return).toBeDefined();
    await expectError(await renew(reader.client, loan.id), 409, { message: /lost/ });

    const charged = await entriesOf(loan.id);
    clock.set(iso(threshold + 7 * DAY_MS));
    const back = await returned(reader.client, loan.id);
    expect(back).toMatchObject({
      status: 'returned',
      lost_at: iso(threshold),
      returned_at: iso(threshold + 7 * DAY_MS),
    });
    expect(await entriesOf(loan.id)).toEqual(charged);
  });

  it('the loan.lost event is the borrower\u2019s and librarians\u2019 only', async () => {
    const { reader, loan, threshold } = await lent();
    clock.set(iso(threshold));
    await run();
    const event = { type: 'loan.lost', href: `/loans/${loan.id}` };
    expect(await events(reader.client)).toContainEqual(event);
    expect(await events(t)).toContainEqual(event);
    const other = await member();
    expect(await events(other.client)).not.toContainEqual(event);
    expect(await events(t.anonymous)).not.toContainEqual(event);
  });

  it('one run charging a borrower for two loans is one account.charged event, and a loan.lost per loan', async () => {
    const { reader, loan, threshold } = await lent();
    const second = await borrowed(reader.client, await addBook(t, `Lost Book ${++serial}`, 2001, author));
    clock.set(iso(threshold));
    await run();
    expect(await entriesOf(loan.id)).toHaveLength(2);
    expect(await entriesOf(second.id)).toHaveLength(2);
    const seen = await events(reader.client);
    expect(seen.filter((e) => e.href === `/users/${reader.id}/account`)).toEqual([
      { type: 'account.charged', href: `/users/${reader.id}/account` },
    ]);
    expect(seen.filter((e) => e.type === 'loan.lost')).toEqual([
      { type: 'loan.lost', href: `/loans/${loan.id}` },
      { type: 'loan.lost', href: `/loans/${second.id}` },
    ]);
  });
});
