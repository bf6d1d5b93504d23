/**
 * The circulation desk over HTTP, on PGlite and (with DATABASE_URL) PostgreSQL, on a fixed business clock: a
 * librarian reads a patron's library card, lends copies to them by barcode (refused with the lending rule's
 * reason, or a clean 422 for a card or barcode that names nothing, changing nothing), and checks copies in
 * by barcode, learning where each goes now (the shelf, the hold shelf for a named patron, in transit to a
 * pickup branch) and the fine charged. Members have no desk.
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
} from './support/catalogue.js';
import { borrowed, held } from './support/circulation.js';
import { DAY_MS, fixedClock, HOUR_MS } from './support/clock.js';
import {
  type ChangesPageDocument,
  controlOf,
  type Document,
  type LoanDocument,
  type RootDocument,
  remoteOptions,
} from './support/documents.js';
import { expectError } from './support/errors.js';

const START = '2026-06-01T09:00:00.000Z';

type DeskDocument = Document<{
  branch_id: number;
  patron?: {
    id: number;
    name: string;
    card_number: string;
    loans_out: number;
    balance: { minor: number; currency: string };
  };
}>;

type CheckedOutDocument = LoanDocument & { title: string; barcode: string; borrower_name: string };

type CheckedInDocument = Document<{
  loan_id: number;
  title: string;
  barcode: string;
  returned_at: string;
  goes_to: 'shelf' | 'hold_shelf' | 'in_transit';
  goes_to_branch_id: number;
  goes_to_branch: string;
  hold_id: number | null;
  for_patron: string | null;
  placement: string;
  fine: { minor: number; currency: string; formatted: string } | null;
}>;

describe('the circulation desk', () => {
  const clock = fixedClock(START);
  let t: TestCatalogue;
  let author: number;
  const branch = { main: 0, east: 0 };
  let referenceType: number;
  let finedType: number;
  let member: { id: number; token: string };
  let barcodes = 0;

  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
    rowsOf<T>(await t.database.db.execute(query))[0] as T;

  /** A patron at home at `home` with this library card. */
  async function patron(name: string, card: string, home = branch.main) {
    const user = await addUser(t, name, 'member');
    await t.database.db.execute(
      sql`update users set card_number = ${card}, home_branch_id = ${home} where id = ${user.id}`,
    );
    return user;
  }

  /** A book whose one copy, at home at Main, carries a new barcode (of an item type when named). */
  async function barcodedBook(title: string, itemType?: number) {
    barcodes += 1;
    const barcode = `3900000${String(barcodes).padStart(5, '0')}`;
    const bookId = await addBook(t, title, 2001, author);
    const copy = await one<{ id: number }>(
      sql`update copies set barcode = ${barcode}, item_type_id = coalesce(${itemType ?? null}::integer, item_type_id)
          where book_id = ${bookId} returning id`,
    );
    return { bookId, copyId: copy.id, barcode };
  }

  const checkOut = (body: Record<string, unknown>) => t.send('POST', '/desk/checkouts', body);
  const checkIn = (body: Record<string, unknown>) => t.send('POST', '/desk/checkins', body);

  async function checkedOut(body: Record<string, unknown>): Promise<CheckedOutDocument> {
    const response = await checkOut(body);
    expect(response.status, await response.clone().text()).toBe(201);
    return json<CheckedOutDocument>(response);
  }

  async function checkedIn(body: Record<string, unknown>): Promise<CheckedInDocument> {
    const response = await checkIn(body);
    expect(response.status, await response.clone().text()).toBe(200);
    return json<CheckedInDocument>(response);
  }

  const loanCount = async () => Number((await one<{ n: number }>(sql`select count(*)::int as n from loans`)).n);

  /** Where the feed stands now, to read what happens from here on. */
  async function feedNow(): Promise<string> {
    const page = await json<ChangesPageDocument>(await t.request('/changes?from=now'));
    return linkHref(page, 'next') as string;
  }
  async function eventsSince(next: string): Promise<string[]> {
    const page = await json<ChangesPageDocument>(await t.request(next));
    return page.data.map((event) => event.type);
  }

  beforeAll(async () => {
    t = await openTestCatalogue({ clock });
    author = await addAuthor(t, 'Desk Author');
    branch.main = (await one<{ id: number }>(sql`select id from branches where code = 'main'`)).id;
    branch.east = (
      await one<{ id: number }>(sql`insert into branches (code, name) values ('east', 'East branch') returning id`)
    ).id;
    referenceType = (
      await one<{ id: number }>(sql`insert into item_types (code, name) values ('ref', 'Reference') returning id`)
    ).id;
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, lendable) values (${referenceType}, false)`);
    finedType = (
      await one<{ id: number }>(sql`insert into item_types (code, name) values ('fined', 'Fined') returning id`)
    ).id;
    // 25 cents a day from the first day late, at most €10.00 a loan.
    await t.database.db.execute(
      sql`insert into loan_rules (item_type_id, fine_per_day, grace_days, fine_cap) values (${finedType}, 25, 0, 1000)`,
    );
    member = await patron('Dora Desk', 'CARD-0001');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('who has a desk', () => {
    it('a librarian finds it from the root, with find-patron and check-out, and check-in beside it', async () => {
      const root = await json<RootDocument>(await t.request('/'));
      expect(linkHref(root, 'desk')).toBe('/desk');
      const desk = await json<DeskDocument>(await t.request('/desk'));
      expect(desk.patron).toBeUndefined();
      expect(controlOf(desk, 'find-patron')).toMatchObject({ method: 'GET', href: '/desk' });
      const lend = controlOf(desk, 'check-out');
      expect(lend).toMatchObject({ method: 'POST', href: '/desk/checkouts' });
      expect(lend.fields.map((f) => [f.name, f.required])).toEqual([
        ['card_number', true],
        ['barcode', true],
        ['branch_id', false],
      ]);
      const desksBranch = lend.fields.find((f) => f.name === 'branch_id');
      expect(desksBranch?.value).toBe(branch.main);
      expect(remoteOptions(desksBranch)?.href).toMatch(/^\/branches\?/);
      const checkins = await json<DeskDocument>(await t.request(linkHref(desk, 'checkins') as string));
      expect(controlOf(checkins, 'check-in')).toMatchObject({ method: 'POST', href: '/desk/checkins' });
    });

    it('a member sees no desk link and is refused every desk request with 403', async () => {
      const as = t.as(member.token);
      const root = await json<RootDocument>(await as.request('/'));
      expect(linkHref(root, 'desk')).toBeUndefined();
      await expectError(await as.request('/desk'), 403);
      await expectError(await as.request('/desk/checkins'), 403);
      const { barcode } = await barcodedBook('Not For Members');
      const before = await loanCount();
      await expectError(await as.send('POST', '/desk/checkouts', { card_number: 'CARD-0001', barcode }), 403);
      await expectError(await as.send('POST', '/desk/checkins', { barcode }), 403);
      expect(await loanCount()).toBe(before);
    });
  });

  describe('check-out', () => {
    it('reading a card shows the patron, their loans out and balance, with their card filled in', async () => {
      const reader = await patron('Rita Reader', 'CARD-RITA');
      const { bookId } = await barcodedBook('Already Out');
      await borrowed(t, bookId, { borrower_id: reader.id });
      const desk = await json<DeskDocument>(await t.request('/desk?card_number=CARD-RITA'));
      expect(desk.patron).toMatchObject({
        id: reader.id,
        name: 'Rita Reader',
        card_number: 'CARD-RITA',
        loans_out: 1,
        balance: { minor: 0, currency: 'EUR' },
      });
      expect(linkHref(desk, 'borrower')).toBe(`/users/${reader.id}`);
      const card = controlOf(desk, 'check-out').fields.find((f) => f.name === 'card_number');
      expect(card?.value).toBe('CARD-RITA');
      await expectError(await t.request('/desk?card_number=NO-SUCH-CARD'), 422, {
        details: ['card_number'],
        message: 'card_number names no user',
      });
    });

    it('lends the copy scanned to the card\u2019s patron at the librarian\u2019s branch, or the one named', async () => {
      const { bookId, copyId, barcode } = await barcodedBook('Lent At The Desk');
      const response = await checkOut({ card_number: 'CARD-0001', barcode });
      expect(response.status, await response.clone().text()).toBe(201);
      const loan = await json<CheckedOutDocument>(response);
      expect(response.headers.get('location')).toBe(`/loans/${loan.id}`);
      expect(loan).toMatchObject({
        book_id: bookId,
        copy_id: copyId,
        borrower_id: member.id,
        status: 'active',
        title: 'Lent At The Desk',
        barcode,
        borrower_name: 'Dora Desk',
      });
      expect(Date.parse(loan.due_at)).toBeGreaterThan(Date.parse(START));
      expect(await one<{ branch_id: number }>(sql`select branch_id from loans where id = ${loan.id}`)).toEqual({
        branch_id: branch.main,
      });
      // The member reads it as their own loan.
      expect((await t.as(member.token).request(`/loans/${loan.id}`)).status).toBe(200);

      const east = await barcodedBook('Lent At East');
      const atEast = await checkedOut({ card_number: 'CARD-0001', barcode: east.barcode, branch_id: branch.east });
      expect(await one<{ branch_id: number }>(sql`select branch_id from loans where id = ${atEast.id}`)).toEqual({
        branch_id: branch.east,
      });
    });

    it('a card or barcode that names nothing, or a withdrawn copy: 422 naming the field, nothing changed', async () => {
      const { barcode } = await barcodedBook('Never Lent');
      const withdrawn = await barcodedBook('Withdrawn Copy');
      const copy = await t.send('PATCH', `/copies/${withdrawn.copyId}`, { status: 'withdrawn' });
      expect(copy.status).toBe(200);
      const before = await loanCount();
      const feed = await feedNow();

      await expectError(await checkOut({ card_number: 'NO-SUCH-CARD', barcode }), 422, {
        details: ['card_number'],
        message: 'card_number names no user',
      });
      await expectError(await checkOut({ card_number: 'CARD-0001', barcode: 'NO-SUCH-BARCODE' }), 422, {
        details: ['barcode'],
        message: 'barcode names no copy',
      });
      await expectError(await checkOut({ card_number: 'CARD-0001', barcode: withdrawn.barcode }), 422, {
        details: ['barcode'],
        message: `copy ${withdrawn.copyId} (barcode ${withdrawn.barcode}) is withdrawn`,
      });
      await expectError(await checkOut({ card_number: 'CARD-0001' }), 400, { details: ['barcode'] });
      await expectError(await checkIn({ barcode: 'NO-SUCH-BARCODE' }), 422, { details: ['barcode'] });
      await expectError(await checkIn({ barcode: withdrawn.barcode }), 422, { details: ['barcode'] });

      expect(await loanCount()).toBe(before);
      expect(await eventsSince(feed)).toEqual([]);
    });

    it('a desk at a branch that does not exist: 422 naming branch_id, nothing lent or returned', async () => {
      const { barcode } = await barcodedBook('Nowhere Desk');
      const before = await loanCount();
      await expectError(await checkOut({ card_number: 'CARD-0001', barcode, branch_id: 999_999 }), 422, {
        details: ['branch_id'],
        message: 'branch_id 999999 names no branch',
      });
      expect(await loanCount()).toBe(before);
      const loan = await checkedOut({ card_number: 'CARD-0001', barcode });
      await expectError(await checkIn({ barcode, branch_id: 999_999 }), 422, {
        details: ['branch_id'],
        message: 'branch_id names no branch',
      });
      const still = await json<LoanDocument>(await t.request(`/loans/${loan.id}`));
      expect(still.status).toBe('active');
    });

    it('a copy the lending rules refuse: 409 with the rule\u2019s reason, nothing lent', async () => {
      const { barcode } = await barcodedBook('Reference Only', referenceType);
      const before = await loanCount();
      const feed = await feedNow();
      await expectError(await checkOut({ card_number: 'CARD-0001', barcode }), 409, {
        message: /an item of type Reference is not lent \(rule \d+\)/,
      });
      expect(await loanCount()).toBe(before);
      expect(await eventsSince(feed)).toEqual([]);
    });

    it('a copy already out: 409, nothing lent', async () => {
      const { barcode } = await barcodedBook('Out Already');
      await checkedOut({ card_number: 'CARD-0001', barcode });
      await patron('Otto Other', 'CARD-OTTO');
      const before = await loanCount();
      await expectError(await checkOut({ card_number: 'CARD-OTTO', barcode }), 409, { message: /not on the shelf/ });
      expect(await loanCount()).toBe(before);
    });
  });

  describe('check-in', () => {
    it('a copy nobody waits for goes back on the shelf at the desk\u2019s branch; no fine on time', async () => {
      const { barcode } = await barcodedBook('Back To The Shelf');
      const loan = await checkedOut({ card_number: 'CARD-0001', barcode });
      const back = await checkedIn({ barcode });
      expect(back).toMatchObject({
        loan_id: loan.id,
        title: 'Back To The Shelf',
        barcode,
        goes_to: 'shelf',
        goes_to_branch_id: branch.main,
        goes_to_branch: 'Main library',
        hold_id: null,
        for_patron: null,
        placement: 'Shelf at Main library',
        fine: null,
      });
      expect(back.returned_at).toBe(START);
      const read = await json<LoanDocument>(await t.request(`/loans/${loan.id}`));
      expect(read.status).toBe('returned');
      // Checked in again: nothing is out on that copy.
      await expectError(await checkIn({ barcode }), 409, { message: /is neither on loan nor in transit/ });
    });

    it('a copy someone holds here goes to the hold shelf for them, by name', async () => {
      const { barcode } = await barcodedBook('Held Here');
      await checkedOut({ card_number: 'CARD-0001', barcode });
      const waiting = await patron('Hana Holder', 'CARD-HANA', branch.main);
      const hold = await held(
        t.as(waiting.token),
        (await one<{ book_id: number }>(sql`select book_id from copies where barcode = ${barcode}`)).book_id,
      );
      const back = await checkedIn({ barcode });
      expect(back).toMatchObject({
        goes_to: 'hold_shelf',
        goes_to_branch_id: branch.main,
        hold_id: hold.id,
        for_patron: 'Hana Holder',
        placement: 'Hold shelf at Main library for Hana Holder',
      });
      const ready = await json<{ status: string }>(await t.request(`/holds/${hold.id}`));
      expect(ready.status).toBe('ready');
    });

    it('a copy someone holds at another branch goes in transit to their pickup branch', async () => {
      const { bookId, barcode } = await barcodedBook('Held At East');
      await checkedOut({ card_number: 'CARD-0001', barcode });
      const far = await patron('Egon East', 'CARD-EGON', branch.east);
      const hold = await held(t.as(far.token), bookId);
      const back = await checkedIn({ barcode });
      expect(back).toMatchObject({
        goes_to: 'in_transit',
        goes_to_branch_id: branch.east,
        goes_to_branch: 'East branch',
        hold_id: hold.id,
        for_patron: 'Egon East',
        placement: 'In transit to East branch for Egon East',
      });
      expect(linkHref(back, 'destination')).toBe(`/branches/${branch.east}`);
    });

    describe('a copy in transit, lent to nobody, checked in', () => {
      /** A copy sent from Main to East for a patron at home there; answers the hold and the copy's barcode. */
      async function sentEast(title: string) {
        const { bookId, copyId, barcode } = await barcodedBook(title);
        await checkedOut({ card_number: 'CARD-0001', barcode });
        const far = await patron(`Ella ${title}`, `CARD-${title.replaceAll(' ', '-').toUpperCase()}`, branch.east);
        const hold = await held(t.as(far.token), bookId);
        expect((await checkedIn({ barcode })).goes_to).toBe('in_transit');
        return { bookId, copyId, barcode, hold, name: `Ella ${title}` };
      }

      it('at its destination is received, as receive does: the hold is ready, its notice queued, the answer says the hold shelf', async () => {
        const { copyId, barcode, hold, name } = await sentEast('Off The Van');
        const loans = await loanCount();
        const next = await feedNow();
        const here = await checkedIn({ barcode, branch_id: branch.east });
        expect(here).toMatchObject({
          action: 'received',
          loan_id: null,
          borrower_id: null,
          copy_id: copyId,
          barcode,
          title: 'Off The Van',
          goes_to: 'hold_shelf',
          goes_to_branch_id: branch.east,
          goes_to_branch: 'East branch',
          hold_id: hold.id,
          for_patron: name,
          placement: `Received: Hold shelf at East branch for ${name}`,
          fine: null,
        });
        expect(linkHref(here, 'location')).toBe(`/branches/${branch.east}`);
        expect(linkHref(here, 'hold')).toBe(`/holds/${hold.id}`);
        expect(linkHref(here, 'loan')).toBeUndefined();
        const ready = await json<{ status: string; ready_until: string }>(await t.request(`/holds/${hold.id}`));
        expect(ready.status).toBe('ready');
        expect(ready.ready_until).toBeTruthy();
        const copy = await json<{ status: string; location_branch_id: number }>(await t.request(`/copies/${copyId}`));
        expect(copy).toMatchObject({ status: 'on_hold', location_branch_id: branch.east });
        const notices = await one<{ n: number }>(
          sql`select count(*)::int as n from notices where kind = 'hold_ready' and hold_id = ${hold.id}`,
        );
        expect(notices.n).toBe(1);
        expect(await eventsSince(next)).toEqual(expect.arrayContaining(['copy.received', 'hold.ready']));
        expect(await loanCount()).toBe(loans);
        // Scanned again, it is on the hold shelf: nothing to check in.
        await expectError(await checkIn({ barcode, branch_id: branch.east }), 409, {
          message: /is neither on loan nor in transit/,
        });
      });

      it('at another branch on its way is there now and sent on to its destination, for the same hold', async () => {
        const west = (
          await one<{ id: number }>(
            sql`insert into branches (code, name) values ('west', 'West branch') on conflict (code) do update set name = excluded.name returning id`,
          )
        ).id;
        const { copyId, barcode, hold, name } = await sentEast('Wrong Van');
        const next = await feedNow();
        const there = await checkedIn({ barcode, branch_id: west });
        expect(there).toMatchObject({
          action: 'sent_on',
          loan_id: null,
          goes_to: 'in_transit',
          goes_to_branch_id: branch.east,
          goes_to_branch: 'East branch',
          hold_id: hold.id,
          for_patron: name,
          placement: `Not for this branch, send it on: In transit to East branch for ${name}`,
          fine: null,
        });
        expect(linkHref(there, 'destination')).toBe(`/branches/${branch.east}`);
        const copy = await json<{ status: string; location_branch_id: number; transit_to_branch_id: number }>(
          await t.request(`/copies/${copyId}`),
        );
        expect(copy).toMatchObject({
          status: 'in_transit',
          location_branch_id: west,
          transit_to_branch_id: branch.east,
        });
        expect((await json<{ status: string }>(await t.request(`/holds/${hold.id}`))).status).toBe('in_transit');
        expect(await eventsSince(next)).toEqual([]);
        // Where it was going, it is received.
        const arrived = await checkedIn({ barcode, branch_id: branch.east });
        expect(arrived).toMatchObject({ action: 'received', goes_to: 'hold_shelf', hold_id: hold.id });
      });

      it('scanned again where it was returned, before it left, says to send it on and changes nothing', async () => {
        const { copyId, barcode, hold, name } = await sentEast('Still Here');
        const next = await feedNow();
        const again = await checkedIn({ barcode, branch_id: branch.main });
        expect(again).toMatchObject({
          action: 'sent_on',
          loan_id: null,
          goes_to: 'in_transit',
          goes_to_branch_id: branch.east,
          hold_id: hold.id,
          for_patron: name,
          placement: `Not for this branch, send it on: In transit to East branch for ${name}`,
        });
        const copy = await json<{ status: string; location_branch_id: number; transit_to_branch_id: number }>(
          await t.request(`/copies/${copyId}`),
        );
        expect(copy).toMatchObject({
          status: 'in_transit',
          location_branch_id: branch.main,
          transit_to_branch_id: branch.east,
        });
        expect((await json<{ status: string }>(await t.request(`/holds/${hold.id}`))).status).toBe('in_transit');
        expect(await eventsSince(next)).toEqual([]);
      });

      it('a member cannot, and a branch that does not exist is a 422 that changes nothing', async () => {
        const { copyId, barcode } = await sentEast('Nowhere Van');
        await expectError(await t.as(member.token).send('POST', '/desk/checkins', { barcode }), 403);
        await expectError(await checkIn({ barcode, branch_id: 99999999 }), 422, { details: ['branch_id'] });
        const copy = await json<{ status: string; location_branch_id: number }>(await t.request(`/copies/${copyId}`));
        expect(copy).toMatchObject({ status: 'in_transit', location_branch_id: branch.main });
      });

      it('in HTML, the check-in page says it was received', async () => {
        const { barcode, name } = await sentEast('Posted Van');
        const response = await t.request('/desk/checkins', {
          method: 'POST',
          headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ barcode, branch_id: String(branch.east) }).toString(),
        });
        expect(response.status).toBe(200);
        const answer = await response.text();
        expect(answer).toContain(`<li class="desk-result done" data-barcode="${barcode}">`);
        expect(answer).toContain(`Received: Hold shelf at East branch for ${name}`);
      });
    });

    it('a late return charges the fine, and the answer says how much', async () => {
      clock.set(START);
      const { barcode } = await barcodedBook('Late Again', finedType);
      const loan = await checkedOut({ card_number: 'CARD-0001', barcode });
      // Noon of the third day after the due date.
      clock.set(new Date(Date.parse(loan.due_at) + 3 * DAY_MS - 12 * HOUR_MS));
      try {
        const back = await checkedIn({ barcode });
        expect(back.fine).toEqual({ minor: 75, currency: 'EUR', formatted: '€0.75' });
        expect(linkHref(back, 'account')).toBe(`/users/${member.id}/account`);
        const account = await json<{ balance: { minor: number } }>(await t.request(`/users/${member.id}/account`));
        expect(account.balance.minor).toBe(75);
      } finally {
        clock.set(START);
      }
    });
  });

  describe('in HTML, without the script', () => {
    const page = async (response: Response) => {
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      return response.text();
    };

    it('the card field has the focus; once a card is read, the barcode field does, the card carried along', async () => {
      const empty = await page(await t.request('/desk', { headers: { Accept: 'text/html' } }));
      expect(empty).toMatch(/<input id="desk-card"[^>]*autofocus/);
      expect(empty).not.toContain('name="barcode"');
      const ready = await page(await t.request('/desk?card_number=CARD-0001', { headers: { Accept: 'text/html' } }));
      expect(ready).toContain('Dora Desk');
      expect(ready).not.toMatch(/<input id="desk-card"[^>]*autofocus/);
      expect(ready).toMatch(/<input id="desk-check-out-barcode"[^>]*autofocus/);
      expect(ready).toContain('<input type="hidden" name="card_number" value="CARD-0001"/>');
      expect(ready).toContain('<script src="/assets/desk.js" defer=""></script>');
    });

    it('a check-in posted as a form answers where the copy goes, with the form again for the next scan', async () => {
      const { barcode } = await barcodedBook('Posted Back');
      await checkedOut({ card_number: 'CARD-0001', barcode });
      const response = await t.request('/desk/checkins', {
        method: 'POST',
        headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ barcode, branch_id: String(branch.main) }).toString(),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const answer = await page(response);
      expect(answer).toContain(`<li class="desk-result done" data-barcode="${barcode}">`);
      expect(answer).toContain('Shelf at Main library');
      expect(answer).toContain('No fine');
      expect(answer).toMatch(/<input id="desk-check-in-barcode"[^>]*autofocus/);
    });
  });
});
