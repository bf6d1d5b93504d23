/**
 * My account (`/me`), on PGlite and (with DATABASE_URL) PostgreSQL: reached from the root by `my_account`
 * when signed in; a member's current loans (due dates, overdue, `renew` exactly where renewing succeeds),
 * holds (their place in each queue among other patrons' holds, pickup branch, `cancel` and `change_pickup`,
 * each submitted as offered), balance and recent charges, in JSON, HAL, HAL-FORMS and HTML; never another
 * user's; a librarian's own page; a ready hold's pickup fixed (409), a branch that names nothing (422); 401
 * for the anonymous.
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
import { borrowed, held, renew, returned } from './support/circulation.js';
import {
  type ControlDoc,
  type Doc,
  type HoldDocument,
  type LinkDoc,
  type LoanDocument,
  type RootDocument,
  remoteOptions,
  submit,
} from './support/documents.js';
import { expectError } from './support/errors.js';

/** A member of an embedded group: its state, links and (where it has any) controls. */
type Member = Record<string, unknown> & { id: number; links: LinkDoc[]; controls?: Record<string, ControlDoc> };

/** The HAL view of a document: enough of it to compare with the JSON one. */
interface HalView {
  _links: Record<string, { href: string }>;
  _embedded: Record<string, { id: number; _templates?: Record<string, { method: string; target: string }> }[]>;
}

type MyAccountDocument = Doc & {
  id: number;
  name: string;
  formatted_balance: string;
  embedded: { loans: Member[]; holds: Member[]; charges: Member[] };
};

const controlsOf = (member: Member) => Object.keys(member.controls ?? {}).sort();
const control = (member: Member, name: string): ControlDoc => {
  const found = member.controls?.[name];
  if (!found) throw new Error(`no ${name} control on ${JSON.stringify(member)}`);
  return found;
};
const titleOf = (member: Member, rel: string) => member.links.find((l) => l.rel === rel)?.title;

describe('My account', () => {
  let t: TestCatalogue;
  let author: number;
  let member: { id: number; token: string };
  let other: { id: number; token: string };
  let queued: { id: number; token: string };
  let east: number;
  /** The member's loans: one renewable, one overdue; the other patron's loan of the held books. */
  const loans = { renewable: 0, overdue: 0, others: [] as number[] };
  /** The member's holds: first in line for one book, second (behind `queued`) for another. */
  const holds = { first: 0, second: 0 };
  const books = { first: 0, second: 0 };

  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
    rowsOf<T>(await t.database.db.execute(query))[0] as T;
  const myAccount = async (client: TestClient): Promise<MyAccountDocument> => {
    const response = await client.request('/me');
    expect(response.status, await response.clone().text()).toBe(200);
    return json<MyAccountDocument>(response);
  };
  const memberOf = (group: Member[], id: number): Member => {
    const found = group.find((m) => m.id === id);
    if (!found) throw new Error(`${id} is not among ${JSON.stringify(group.map((m) => m.id))}`);
    return found;
  };

  beforeAll(async () => {
    // One renewal allowed: a loan renewed once is at its limit.
    t = await openTestCatalogue({ access: { maxRenewals: 1 } });
    author = await addAuthor(t, 'Account Author');
    member = await addUser(t, 'Mina Member');
    other = await addUser(t, 'Otto Other');
    queued = await addUser(t, 'Quinn Queued');
    east = (
      await one<{ id: number }>(sql`insert into branches (code, name) values ('east', 'East branch') returning id`)
    ).id;

    loans.renewable = (await borrowed(t, await addBook(t, 'Renew Me', 2001, author), { borrower_id: member.id })).id;
    loans.overdue = (await borrowed(t, await addBook(t, 'Late Again', 2002, author), { borrower_id: member.id })).id;
    await t.database.db.execute(sql`update loans set borrowed_at = now() - interval '20 days',
      due_at = now() - interval '1 day' where id = ${loans.overdue}`);

    // Two books out with the other patron: the member is first in one queue, second (behind Quinn) in the other.
    books.first = await addBook(t, 'First In Line', 2003, author);
    books.second = await addBook(t, 'Second In Line', 2004, author);
    for (const book of [books.first, books.second]) {
      loans.others.push((await borrowed(t, book, { borrower_id: other.id })).id);
    }
    holds.first = (await held(t.as(member.token), books.first)).id;
    await held(t.as(queued.token), books.first);
    await held(t.as(queued.token), books.second);
    holds.second = (await held(t.as(member.token), books.second)).id;

    const charged = await t.send('POST', `/users/${member.id}/account/charges`, { amount: 250, reason: 'Torn page' });
    expect(charged.status, await charged.clone().text()).toBe(201);
  });
  afterAll(() => t.close());

  it('is linked from the root as my_account only for a signed-in caller', async () => {
    const anonymous = await json<RootDocument>(await t.anonymous.request('/'));
    expect(linkHref(anonymous, 'my_account')).toBeUndefined();
    for (const client of [t.as(member.token), t]) {
      const root = await json<RootDocument>(await client.request('/'));
      expect(linkHref(root, 'my_account')).toBe('/me');
    }
  });

  it('answers 401 to the anonymous, in the error shape, linking to where one signs in; the page shows the form', async () => {
    const response = await t.anonymous.request('/me');
    expect(response.headers.get('link')).toBe('</>; rel="sign_in"');
    await expectError(response, 401, { message: /sign in/ });
    const page = await t.anonymous.request('/me', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(401);
    expect(await page.text()).toMatch(/<form rel="login"[^>]*action="\/session"/);
  });

  it('lists the member\u2019s loans, holds with their places, balance and charges, and nobody else\u2019s', async () => {
    const response = await t.as(member.token).request('/me');
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('vary')).toMatch(/Authorization/);
    const page = await json<MyAccountDocument>(response);
    expect(page).toMatchObject({ id: member.id, name: 'Mina Member', formatted_balance: '€2.50' });
    expect(linkHref(page, 'self')).toBe('/me');
    expect(linkHref(page, 'me')).toBe(`/users/${member.id}`);
    expect(linkHref(page, 'account')).toBe(`/users/${member.id}/account`);
    const history = linkHref(page, 'loan_history') as string;
    expect(history).toMatch(new RegExp(`^/users/${member.id}/loans\\?filter=status%3Areturned`));

    const { embedded } = page;
    expect(embedded.loans.map((l) => l.id).sort()).toEqual([loans.renewable, loans.overdue].sort());
    const renewable = memberOf(embedded.loans, loans.renewable);
    const overdue = memberOf(embedded.loans, loans.overdue);
    expect(renewable).toMatchObject({ title: 'Renew Me', overdue: false, status: 'active' });
    expect(renewable.due_at).toBe((await json<LoanDocument>(await t.request(`/loans/${loans.renewable}`))).due_at);
    expect(overdue).toMatchObject({ title: 'Late Again', overdue: true, status: 'overdue' });
    expect(titleOf(renewable, 'book')).toBe('Renew Me');
    // Due soonest first: the overdue loan leads.
    expect(embedded.loans[0]?.id).toBe(loans.overdue);
    expect(controlsOf(renewable)).toEqual(['renew']);
    expect(controlsOf(overdue)).toEqual([]);

    expect(embedded.holds.map((h) => [h.id, h.position, h.status])).toEqual([
      [holds.first, 1, 'waiting'],
      [holds.second, 2, 'waiting'],
    ]);
    for (const hold of embedded.holds) {
      expect(controlsOf(hold)).toEqual(['cancel', 'change_pickup']);
      expect(titleOf(hold, 'pickup_branch')).toBe('Main library');
    }
    expect(titleOf(memberOf(embedded.holds, holds.second), 'book')).toBe('Second In Line');

    expect(embedded.charges).toHaveLength(1);
    expect(embedded.charges[0]).toMatchObject({ kind: 'manual', formatted_amount: '€2.50', reason: 'Torn page' });
    // A member waives nothing.
    expect(controlsOf(embedded.charges[0] as Member)).toEqual([]);

    // Other patrons' loans and holds are not on it, nor on theirs the member's.
    const otherPage = await myAccount(t.as(other.token));
    expect(otherPage.embedded.loans.map((l) => l.id).sort()).toEqual([...loans.others].sort());
    expect(otherPage.embedded.holds).toEqual([]);
    expect(otherPage.embedded.charges).toEqual([]);
    const queuedPage = await myAccount(t.as(queued.token));
    expect(queuedPage.embedded.holds.map((h) => h.position)).toEqual([2, 1]);
    expect(queuedPage.embedded.loans).toEqual([]);
  });

  it('offers renew exactly where renewing succeeds: submitted as offered it renews, then it is gone', async () => {
    const client = t.as(member.token);
    // The overdue loan, offered nothing, is refused.
    expect((await renew(client, loans.overdue)).status).toBe(409);
    const before = memberOf((await myAccount(client)).embedded.loans, loans.renewable);
    const renewed = await submit(client, control(before, 'renew'));
    expect(renewed.status, await renewed.clone().text()).toBe(200);
    expect((await json<LoanDocument>(renewed)).renewals).toBe(1);
    // At the limit of one renewal: no control, and the request is refused.
    const after = memberOf((await myAccount(client)).embedded.loans, loans.renewable);
    expect(after.renewals).toBe(1);
    expect(controlsOf(after)).toEqual([]);
    expect((await renew(client, loans.renewable)).status).toBe(409);
  });

  it('changes a waiting hold\u2019s pickup branch by its control, and cancels a hold by its control', async () => {
    const client = t.as(member.token);
    const first = memberOf((await myAccount(client)).embedded.holds, holds.first);
    const change = control(first, 'change_pickup');
    expect(change.method).toBe('PUT');
    const field = change.fields.find((f) => f.name === 'pickup_branch_id');
    expect(field).toMatchObject({ required: true, value: first.pickup_branch_id });
    expect(remoteOptions(field)?.href).toMatch(/^\/branches\?/);
    const changed = await submit(client, change, { pickup_branch_id: east });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(changed.headers.get('content-location')).toBe(`/holds/${holds.first}`);
    expect(await json<HoldDocument>(changed)).toMatchObject({ pickup_branch_id: east, status: 'waiting', position: 1 });

    let page = await myAccount(client);
    expect(titleOf(memberOf(page.embedded.holds, holds.first), 'pickup_branch')).toBe('East branch');
    const second = memberOf(page.embedded.holds, holds.second);
    const cancelled = await submit(client, control(second, 'cancel'));
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect((await json<HoldDocument>(cancelled)).status).toBe('cancelled');
    page = await myAccount(client);
    expect(page.embedded.holds.map((h) => h.id)).toEqual([holds.first]);
    // Quinn moves up to first for that book.
    expect((await myAccount(t.as(queued.token))).embedded.holds.map((h) => h.position)).toEqual([2, 1]);
  });

  it('refuses to move a ready hold\u2019s pickup (409) and offers no such control; nothing changes', async () => {
    const bookId = await addBook(t, 'Ready For You', 2005, author);
    const lent = await borrowed(t, bookId, { borrower_id: other.id });
    const hold = await held(t.as(member.token), bookId);
    await returned(t, lent.id);
    const ready = memberOf((await myAccount(t.as(member.token))).embedded.holds, hold.id);
    expect(ready.status).toBe('ready');
    expect(controlsOf(ready)).toEqual(['cancel']);
    for (const client of [t.as(member.token), t]) {
      await expectError(await client.send('PUT', `/holds/${hold.id}/pickup-branch`, { pickup_branch_id: east }), 409, {
        message: /ready: its copy is set aside/,
      });
    }
    expect((await json<HoldDocument>(await t.request(`/holds/${hold.id}`))).pickup_branch_id).not.toBe(east);
  });

  it('a pickup change racing the copy’s return: either the copy goes to the new branch, or the change is refused', async () => {
    for (let round = 0; round < 6; round++) {
      const bookId = await addBook(t, `Raced ${round}`, 2010, author);
      const lent = await borrowed(t, bookId, { borrower_id: other.id });
      const hold = await held(t.as(member.token), bookId);
      const [change, back] = await Promise.all([
        t.as(member.token).send('PUT', `/holds/${hold.id}/pickup-branch`, { pickup_branch_id: east }),
        t.send('PATCH', `/loans/${lent.id}`, { status: 'returned' }),
      ]);
      expect(back.status).toBe(200);
      const now = await json<HoldDocument>(await t.request(`/holds/${hold.id}`));
      const copy = await json<{ location_branch_id: number; transit_to_branch_id: number | null }>(
        await t.request(`/copies/${now.copy_id}`),
      );
      if (change.status === 200) {
        // Moved first: the returned copy travels to East for it.
        expect(now).toMatchObject({ status: 'in_transit', pickup_branch_id: east });
        expect(copy.transit_to_branch_id).toBe(east);
      } else {
        // The copy was set aside at the old branch first: the branch stayed.
        expect(change.status).toBe(409);
        expect(now.status).toBe('ready');
        expect(now.pickup_branch_id).toBe(copy.location_branch_id);
      }
    }
  });

  it('refuses a pickup branch that names nothing (422 naming the field), a missing one (400), another\u2019s hold (404)', async () => {
    const client = t.as(member.token);
    const path = `/holds/${holds.first}/pickup-branch`;
    await expectError(await client.send('PUT', path, { pickup_branch_id: 999999 }), 422, {
      details: ['pickup_branch_id'],
    });
    await expectError(await client.send('PUT', path, {}), 400, { details: ['pickup_branch_id'] });
    await expectError(await t.as(other.token).send('PUT', path, { pickup_branch_id: east }), 404);
    await expectError(await t.anonymous.send('PUT', path, { pickup_branch_id: east }), 401);
    expect((await json<HoldDocument>(await t.request(`/holds/${holds.first}`))).pickup_branch_id).toBe(east);
  });

  it('is a librarian\u2019s own page too, with their own loans and the controls a librarian has', async () => {
    const bookId = await addBook(t, 'Staff Pick', 2006, author);
    const lent = await borrowed(t, bookId);
    const page = await myAccount(t);
    expect(page.name).toBe('Administrator');
    expect(page.embedded.loans.map((l) => l.id)).toEqual([lent.id]);
    expect(controlsOf(page.embedded.loans[0] as Member)).toEqual(['renew']);
    expect(page.embedded.holds).toEqual([]);
  });

  it('links the loan history: the user’s returned loans only, newest first', async () => {
    const bookId = await addBook(t, 'Read And Returned', 2007, author);
    const earlier = await borrowed(t, bookId, { borrower_id: queued.id });
    await returned(t, earlier.id);
    const later = await borrowed(t, bookId, { borrower_id: queued.id });
    await returned(t, later.id);
    const active = await borrowed(t, await addBook(t, 'Still Out', 2008, author), { borrower_id: queued.id });
    const client = t.as(queued.token);
    const history = await client.request(linkHref(await myAccount(client), 'loan_history') as string);
    expect(history.status).toBe(200);
    const { data } = await json<{ data: { id: number; status: string }[] }>(history);
    expect(data.map((loan) => [loan.id, loan.status])).toEqual([
      [later.id, 'returned'],
      [earlier.id, 'returned'],
    ]);
    expect((await myAccount(client)).embedded.loans.map((loan) => loan.id)).toEqual([active.id]);
  });

  it('is the same resource in HAL, HAL-FORMS and HTML: groups embedded by rel, controls as templates and buttons', async () => {
    const client = t.as(member.token);
    const page = await myAccount(client);
    const hal = await json<HalView>(await client.request('/me', { headers: { Accept: 'application/hal+json' } }));
    expect(Object.keys(hal._embedded)).toEqual(['loans', 'holds', 'charges']);
    expect(hal._embedded.loans?.map((l) => l.id)).toEqual(page.embedded.loans.map((l) => l.id));
    expect(hal._links.loan_history?.href).toBe(linkHref(page, 'loan_history'));
    const forms = await json<HalView>(
      await client.request('/me', { headers: { Accept: 'application/prs.hal-forms+json' } }),
    );
    const hold = forms._embedded.holds?.[0];
    expect(hold?._templates?.change_pickup).toMatchObject({
      method: 'PUT',
      target: `/holds/${holds.first}/pickup-branch`,
    });
    expect(Object.keys(hold?._templates ?? {})).toEqual(['default', 'cancel', 'change_pickup']);

    const html = await (await client.request('/me', { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain('<h1>My account</h1>');
    for (const heading of ['Current loans', 'Holds', 'Recent charges']) expect(html).toContain(`>${heading}</h2>`);
    expect(html).toMatch(new RegExp(`<form rel="change_pickup"[^>]*action="/holds/${holds.first}/pickup-branch"`));
    expect(html).toMatch(new RegExp(`<form rel="cancel"[^>]*action="/holds/${holds.first}"`));
    expect(html).toContain('<input type="hidden" name="status" value="cancelled"/>');
    // Ids are unique on the page: each row's forms are its own.
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
