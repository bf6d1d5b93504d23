/**
 * Accounts over HTTP, on business time: the overdue fine a late return charges (grace days, cap), payments
 * and waivers that sum exactly, a payment beyond the balance refused with nothing changed, twenty payments at
 * once on one account, the fine limit that stops borrowing and renewing, and who may see an account.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { constraintViolation } from '../src/db/errors.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';
import { borrow, borrowed, renew, returned } from './support/circulation.js';
import { DAY_MS, fixedClock, HOUR_MS } from './support/clock.js';
import type { BookDocument, ChangesPageDocument, Document, LoanDocument, Member } from './support/documents.js';
import { expectError } from './support/errors.js';

interface Money {
  minor: number;
  currency: string;
}

type EntryDocument = Document<{
  id: number;
  kind: 'overdue_fine' | 'lost_item' | 'manual' | 'payment' | 'waiver';
  amount: Money;
  formatted_amount: string;
  waived?: Money;
  loan_id: number | null;
  charge_id: number | null;
  reason: string | null;
  recorded_by: number | null;
  created_at: string;
}>;

type AccountDocument = Document<{ user_id: number; balance: Money; formatted_balance: string }> & {
  data: Member<EntryDocument>[];
};

const START = '2026-06-01T10:00:00.000Z'; // a Monday
const clock = fixedClock(START);
let t: TestCatalogue;
let authorId: number;
let booksMade = 0;

beforeAll(async () => {
  t = await openTestCatalogue({ clock });
  authorId = await addAuthor(t, 'Fine Author');
  // 25 cents a day beyond 2 days of grace, at most €2.00 a loan; every branch open every day.
  await t.database.db.execute(
    sql`update loan_rules set fine_per_day = 25, grace_days = 2, fine_cap = 200, no_limit = array_remove(no_limit, 'fine_cap')
        where patron_category_id is null and item_type_id is null and branch_id is null`,
  );
});

afterAll(async () => {
  await t?.close();
});

async function newBook(): Promise<number> {
  booksMade += 1;
  return addBook(t, `Ledger ${booksMade}`, 2000, authorId);
}

async function accountOf(userId: number, token?: string): Promise<AccountDocument> {
  const client = token === undefined ? t : t.as(token);
  const response = await client.request(`/users/${userId}/account`);
  expect(response.status).toBe(200);
  return json<AccountDocument>(response);
}

/**
 * Borrows a new book as the member and returns it at noon of the `days`th day after its due date (a loan is
 * due at the end of a day, UTC here); answers the loan.
 */
async function lateReturn(token: string, days: number): Promise<LoanDocument> {
  clock.set(START);
  const loan = await borrowed(t.as(token), await newBook());
  clock.set(new Date(Date.parse(loan.due_at) + days * DAY_MS - 12 * HOUR_MS));
  const back = await returned(t.as(token), loan.id);
  clock.set(START);
  return back;
}

function pay(userId: number, body: unknown) {
  return t.send('POST', `/users/${userId}/account/payments`, body);
}

describe('the overdue fine on return', () => {
  it('charges each day beyond the grace days, up to the cap, and nothing within the grace', async () => {
    const member = await addUser(t, 'Late Lena');
    // Two days late: the grace days, no fine.
    await lateReturn(member.token, 2);
    expect((await accountOf(member.id)).balance).toEqual({ minor: 0, currency: 'EUR' });
    expect((await accountOf(member.id)).data).toEqual([]);

    // Five days late: three days charged.
    const five = await lateReturn(member.token, 5);
    let account = await accountOf(member.id, member.token);
    expect(account.balance).toEqual({ minor: 75, currency: 'EUR' });
    expect(account.formatted_balance).toBe('€0.75');
    const [fine] = account.data;
    expect(fine).toMatchObject({ kind: 'overdue_fine', amount: { minor: 75, currency: 'EUR' }, loan_id: five.id });
    expect(linkHref(fine as EntryDocument, 'loan')).toBe(`/loans/${five.id}`);

    // Twenty days late: €5.00 cut to the cap of €2.00.
    await lateReturn(member.token, 20);
    account = await accountOf(member.id);
    expect(account.balance.minor).toBe(275);
    expect(account.data.map((e) => [e.kind, e.amount.minor])).toEqual([
      ['overdue_fine', 200],
      ['overdue_fine', 75],
    ]);
  });

  it('counts no fine for a day the branch was closed', async () => {
    const member = await addUser(t, 'Closed Clara');
    clock.set(START);
    const loan = await borrowed(t.as(member.token), await newBook());
    const due = new Date(loan.due_at);
    // Closed on the second day after the due date: five days late is four open days, two charged.
    const closed = new Date(due.getTime() + 2 * DAY_MS).toISOString().slice(0, 10);
    const closure = await t.send('POST', `/branches/1/closures`, { date: closed, reason: 'flood' });
    expect(closure.status).toBe(201);
    clock.set(new Date(due.getTime() + 5 * DAY_MS - 12 * HOUR_MS));
    await returned(t.as(member.token), loan.id);
    clock.set(START);
    expect((await accountOf(member.id)).balance.minor).toBe(50);
    // The other tests' loans are due on the same days: the branch opens again.
    expect((await t.request(closure.headers.get('location') as string, { method: 'DELETE' })).status).toBe(204);
  });

  it('records a fine-charged event that only the borrower and librarians see', async () => {
    const member = await addUser(t, 'Evented Eve');
    const other = await addUser(t, 'Other Otto');
    await lateReturn(member.token, 4);
    const accountEvents = async (client: typeof t.anonymous) => {
      const events: ChangesPageDocument['data'] = [];
      for (let href = '/changes'; ; ) {
        const page = await json<ChangesPageDocument>(await client.request(href));
        if (page.data.length === 0) break;
        events.push(...page.data);
        href = linkHref(page, 'next') as string;
      }
      return events.filter((e) => linkHref(e, 'account') === `/users/${member.id}/account`);
    };
    expect((await accountEvents(t.as(member.token))).map((e) => e.type)).toEqual(['account.charged']);
    expect((await accountEvents(t)).map((e) => e.type)).toEqual(['account.charged']);
    expect(await accountEvents(t.as(other.token))).toEqual([]);
    expect(await accountEvents(t.anonymous)).toEqual([]);
  });
});

describe('payments and waivers', () => {
  it('sum exactly, a waiver linking to its charge and taking it down', async () => {
    const member = await addUser(t, 'Paying Paul');
    await lateReturn(member.token, 5); // 75
    await lateReturn(member.token, 30); // 200
    let account = await accountOf(member.id);
    expect(account.balance.minor).toBe(275);
    const [big, small] = account.data as [EntryDocument, EntryDocument];
    expect(Object.keys(account.controls).sort()).toEqual(['charge', 'create']);

    expect((await pay(member.id, { amount: 100, note: 'cash' })).status).toBe(201);
    // Part of the €2.00 fine, by its control.
    const waive = big.controls.waive;
    expect(waive?.href).toBe(`/users/${member.id}/account/entries/${big.id}/waivers`);
    const waived = await t.send('POST', waive?.href as string, { amount: 50, reason: 'first time' });
    expect(waived.status).toBe(201);
    const waiver = await json<EntryDocument>(waived);
    expect(waiver).toMatchObject({ kind: 'waiver', charge_id: big.id, amount: { minor: 50 } });
    expect(linkHref(waiver, 'charge')).toBe(`/users/${member.id}/account/entries/${big.id}`);
    // The rest of the €0.75 fine, no amount given.
    const rest = await t.send('POST', `/users/${member.id}/account/entries/${small.id}/waivers`, {
      reason: 'branch closed by mistake',
    });
    expect((await json<EntryDocument>(rest)).amount.minor).toBe(75);

    account = await accountOf(member.id);
    expect(account.balance.minor).toBe(275 - 100 - 50 - 75);
    const charges = account.data.filter((e) => e.kind === 'overdue_fine');
    expect(charges.map((e) => [e.amount.minor, e.waived?.minor])).toEqual([
      [200, 50],
      [75, 75],
    ]);
    // The fully waived charge offers no more `waive`; the other offers what is left.
    const entry = await json<EntryDocument>(await t.request(`/users/${member.id}/account/entries/${small.id}`));
    expect(entry.controls.waive).toBeUndefined();
    expect(
      (await t.send('POST', `/users/${member.id}/account/entries/${small.id}/waivers`, { reason: 'again' })).status,
    ).toBe(409);

    expect((await pay(member.id, { amount: 50, currency: 'EUR' })).status).toBe(201);
    account = await accountOf(member.id);
    expect(account.balance).toEqual({ minor: 0, currency: 'EUR' });
    expect(account.data.map((e) => e.kind)).toEqual([
      'payment',
      'waiver',
      'waiver',
      'payment',
      'overdue_fine',
      'overdue_fine',
    ]);
    const payments = await json<AccountDocument>(await t.request(`/users/${member.id}/account/payments`));
    expect(payments.data.map((p) => p.amount.minor)).toEqual([50, 100]);
    expect(payments.data[1]?.reason).toBe('cash');
  });

  it('refuses a payment beyond the balance, naming both, and changes nothing', async () => {
    const member = await addUser(t, 'Over Olga');
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 250, reason: 'damaged cover' });
    const before = await accountOf(member.id);
    await expectError(await pay(member.id, { amount: 251 }), 422, {
      message: 'payment of €2.51 exceeds the balance €2.50',
    });
    const [charge] = before.data as [EntryDocument];
    await expectError(
      await t.send('POST', `/users/${member.id}/account/entries/${charge.id}/waivers`, { amount: 251, reason: 'x' }),
      422,
    );
    expect(await accountOf(member.id)).toEqual(before);
  });

  it('refuses bad input with 400 or 422 in the error shape, and changes nothing', async () => {
    const member = await addUser(t, 'Bad Ben');
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 500, reason: 'lost card' });
    const before = await accountOf(member.id);
    const [charge] = before.data as [EntryDocument];
    const bad: [string, unknown][] = [
      ['payments', { amount: 1.5 }],
      ['payments', { amount: '100' }],
      ['payments', { amount: -1 }],
      ['payments', { amount: 0 }],
      ['payments', {}],
      ['payments', { amount: 100, currency: 'USD' }],
      ['payments', { amount: 100, extra: true }],
      ['charges', { amount: 100 }],
      ['charges', { amount: 100, reason: '   ' }],
      ['charges', { amount: 2.5, reason: 'x' }],
      [`entries/${charge.id}/waivers`, { amount: 10 }],
      [`entries/${charge.id}/waivers`, { amount: 0, reason: 'x' }],
    ];
    for (const [path, body] of bad) {
      const response = await t.send('POST', `/users/${member.id}/account/${path}`, body);
      expect([400, 422], `${path} ${JSON.stringify(body)}`).toContain(response.status);
      await expectError(response, response.status, { what: `${path} ${JSON.stringify(body)}` });
    }
    expect((await t.request(`/users/${member.id}/account/payments`, { method: 'POST', body: 'nope' })).status).toBe(
      415,
    );
    expect(await accountOf(member.id)).toEqual(before);
  });

  it('twenty payments at once each commit or are refused, and none is lost', async () => {
    const member = await addUser(t, 'Busy Bea');
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 1000, reason: 'replacement' });
    const responses = await Promise.all(Array.from({ length: 20 }, () => pay(member.id, { amount: 75 })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s !== 201 && s !== 422)).toEqual([]);
    const paid = statuses.filter((s) => s === 201).length;
    expect(paid).toBe(13);
    const account = await accountOf(member.id);
    expect(account.balance.minor).toBe(1000 - 75 * paid);
    const [row] = rowsOf<{ sum: number }>(
      await t.database.db.execute(
        sql`select coalesce(sum(case when kind = 'payment' then -amount else amount end), 0)::integer as sum
            from account_entries where user_id = ${member.id}`,
      ),
    );
    expect(row?.sum).toBe(account.balance.minor);
  });
});

/** The constraint that refused a statement; fails the test if it succeeded. */
async function refusedBy(statement: SQL): Promise<string | undefined> {
  try {
    await t.database.db.execute(statement);
  } catch (error) {
    return constraintViolation(error)?.constraint;
  }
  throw new Error('the statement was not refused');
}

describe('the balance, kept by the database', () => {
  it('follows a statement of many entries for several users, and refuses what would go below zero', async () => {
    const [a, b] = [await addUser(t, 'Bulk Ada'), await addUser(t, 'Bulk Bob')];
    await t.database.db.execute(
      sql`insert into account_entries (user_id, kind, amount, currency, reason)
          values (${a.id}, 'manual', 300, 'EUR', 'one'), (${b.id}, 'manual', 40, 'EUR', 'two'),
                 (${a.id}, 'manual', 5, 'EUR', 'three'), (${a.id}, 'payment', 100, 'EUR', null)`,
    );
    expect((await accountOf(a.id)).balance.minor).toBe(205);
    expect((await accountOf(b.id)).balance.minor).toBe(40);
    // A payment beyond the balance fails the whole statement: neither account moves.
    expect(
      await refusedBy(
        sql`insert into account_entries (user_id, kind, amount, currency)
            values (${a.id}, 'payment', 5, 'EUR'), (${b.id}, 'payment', 41, 'EUR')`,
      ),
    ).toBe('accounts_balance_not_negative');
    // Another currency than the account's, and a waiver of another user's charge: refused too.
    expect(
      await refusedBy(sql`insert into account_entries (user_id, kind, amount, currency, reason)
                          values (${b.id}, 'manual', 1, 'GBP', 'x')`),
    ).toBe('account_entries_currency_of_account');
    const [charge] = (await accountOf(a.id)).data.filter((e) => e.kind === 'manual') as [EntryDocument];
    expect(
      await refusedBy(sql`insert into account_entries (user_id, kind, amount, currency, charge_id, reason)
                          values (${b.id}, 'waiver', 1, 'EUR', ${charge.id}, 'x')`),
    ).toBe('account_entries_waiver_of_own_charge');
    expect((await accountOf(a.id)).balance.minor).toBe(205);
    expect((await accountOf(b.id)).balance.minor).toBe(40);
  });
});

describe('the fine limit', () => {
  it('over the limit: no borrow or renew control, and the requests answer 409 with the balance', async () => {
    const member = await addUser(t, 'Owing Olaf');
    const bookId = await newBook();
    const loan = await borrowed(t.as(member.token), await newBook());
    // Exactly the limit (€10.00) still borrows; a cent more does not.
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 1000, reason: 'replacement' });
    let book = await json<BookDocument>(await t.as(member.token).request(`/books/${bookId}`));
    expect(book.controls.borrow).toBeDefined();
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 1, reason: 'a cent' });

    book = await json<BookDocument>(await t.as(member.token).request(`/books/${bookId}`));
    expect(book.controls.borrow).toBeUndefined();
    await expectError(await borrow(t.as(member.token), bookId), 409, { message: '€10.01' });
    const loanDoc = await json<LoanDocument>(await t.as(member.token).request(`/loans/${loan.id}`));
    expect(loanDoc.controls.renew).toBeUndefined();
    expect(loanDoc.controls.return).toBeDefined();
    await expectError(await renew(t.as(member.token), loan.id), 409, { message: '€10.01' });
    // A librarian lending to them is refused the same, under their lock.
    await expectError(await borrow(t, bookId, { borrower_id: member.id }), 409, { message: '€10.01' });

    expect((await pay(member.id, { amount: 1 })).status).toBe(201);
    book = await json<BookDocument>(await t.as(member.token).request(`/books/${bookId}`));
    expect(book.controls.borrow).toBeDefined();
    expect((await borrow(t.as(member.token), bookId)).status).toBe(201);
    expect((await renew(t.as(member.token), loan.id)).status).toBe(200);
  });

  it('`none` never blocks', async () => {
    const open = await openTestCatalogue({ access: { fineLimit: 'none' } });
    try {
      const member = await addUser(open, 'Free Fay');
      await open.send('POST', `/users/${member.id}/account/charges`, { amount: 100_000, reason: 'much' });
      const book = await addBook(open, 'Unblocked', 2001, await addAuthor(open, 'A'));
      expect((await borrow(open.as(member.token), book)).status).toBe(201);
    } finally {
      await open.close();
    }
  });
});

describe('who sees an account', () => {
  it('the user and librarians; another member gets 404, the anonymous 401, a member cannot pay', async () => {
    const member = await addUser(t, 'Private Pia');
    const other = await addUser(t, 'Nosy Nils');
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 300, reason: 'damaged' });
    const own = await accountOf(member.id, member.token);
    expect(own.controls).toEqual({});
    expect(own.data[0]?.controls).toBeUndefined();
    const user = await json<Document<{ id: number }>>(await t.as(member.token).request(`/users/${member.id}`));
    expect(linkHref(user, 'account')).toBe(`/users/${member.id}/account`);
    expect(linkHref(user, 'payment')).toBe(`/users/${member.id}/account/payments`);
    expect(linkHref(await accountOf(member.id), 'payment')).toBe(`/users/${member.id}/account/payments`);

    const [charge] = own.data as [EntryDocument];
    for (const path of ['account', 'account/payments', `account/entries/${charge.id}`]) {
      await expectError(await t.as(other.token).request(`/users/${member.id}/${path}`), 404);
      await expectError(await t.anonymous.request(`/users/${member.id}/${path}`), 401);
    }
    await expectError(
      await t.as(member.token).send('POST', `/users/${member.id}/account/payments`, { amount: 1 }),
      403,
    );
    await expectError(
      await t
        .as(member.token)
        .send('POST', `/users/${member.id}/account/entries/${charge.id}/waivers`, { reason: 'x' }),
      403,
    );
    await expectError(await t.request('/users/999999/account'), 404);
    expect((await accountOf(member.id)).balance.minor).toBe(300);
  });

  it('is browsable: the HTML view shows the balance, the entries and the librarian\u2019s forms', async () => {
    const member = await addUser(t, 'Browsed Bo');
    await t.send('POST', `/users/${member.id}/account/charges`, { amount: 420, reason: 'scratched disc' });
    const page = await t.request(`/users/${member.id}/account`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('€4.20');
    expect(html).toContain('scratched disc');
    expect(html).toContain('Record a payment');
    expect(html).toContain('Charge this account');
  });

  it('pages the history newest first', async () => {
    const member = await addUser(t, 'Paged Pat');
    for (let i = 1; i <= 55; i += 1) {
      await t.send('POST', `/users/${member.id}/account/charges`, { amount: i, reason: `charge ${i}` });
    }
    const first = await accountOf(member.id);
    expect(first.data).toHaveLength(50);
    expect(first.data[0]?.amount.minor).toBe(55);
    const next = linkHref(first, 'next') as string;
    const second = await json<AccountDocument>(await t.request(next));
    expect(second.data.map((e) => e.amount.minor)).toEqual([5, 4, 3, 2, 1]);
    expect(linkHref(second, 'next')).toBeUndefined();
    expect((await t.request(`/users/${member.id}/account?cursor=abc`)).status).toBe(400);
  });
});
