/**
 * Circulation over HTTP, on PGlite and (with DATABASE_URL) PostgreSQL: copies added and withdrawn through
 * their controls and counted on the book and in listings; borrowing lends a copy (any on the shelf, or the
 * one a librarian names from the options the control points at); holds queue first come first served, a
 * returned copy goes to the first and only its member may borrow it until it expires, then it passes on;
 * holds are cancelled by their member or a librarian; renewals extend a loan until the limit, an overdue
 * loan or a waiting hold stops them; overdue loans are filtered and linked for librarians; a member finds
 * their loans and holds from `me`; the change feed carries the new events, hold events to the holder only.
 * Time is moved by writing the database's timestamps (a ready hold's `ready_until`, a loan's `due_at`).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { expireReadyHolds } from '../src/db/queries/circulation.js';
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
import {
  borrow,
  borrowed,
  cancelHold,
  cancelled,
  held,
  placeHold,
  renew,
  renewed,
  returned,
} from './support/circulation.js';
import { dueInDays } from './support/clock.js';
import {
  type BookDocument,
  type ChangesPageDocument,
  type CollectionDocument,
  type CopyDocument,
  controlOf,
  type HoldDocument,
  type LoanDocument,
  type PageDoc,
  type RootDocument,
  remoteOptions,
  submit,
  type UserDocument,
} from './support/documents.js';
import { expectError } from './support/errors.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The database's clock and this process's are one machine's: a wide margin keeps checks about meaning. */
const CLOCK_MARGIN_MS = 5 * 60 * 1000;

interface Member {
  id: number;
  token: string;
  client: TestClient;
}

const ids = (items: { id: number }[]) => items.map((item) => item.id);

describe('circulation', () => {
  let t: TestCatalogue;
  let author: number;
  let serial = 0;

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Circulation Author');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function member(name = `Member ${++serial}`): Promise<Member> {
    const user = await addUser(t, name, 'member');
    return { ...user, client: t.as(user.token) };
  }

  /** A book with `copies` copies (it comes with one; the rest are added over HTTP). */
  async function bookWithCopies(copies: number, authorId = author): Promise<number> {
    const id = await addBook(t, `Circulating ${++serial}`, 2000, authorId);
    for (let i = 1; i < copies; i++) expect((await t.send('POST', `/books/${id}/copies`, {})).status).toBe(201);
    return id;
  }

  async function book(client: TestClient, id: number): Promise<BookDocument> {
    const response = await client.request(`/books/${id}`);
    expect(response.status).toBe(200);
    return json<BookDocument>(response);
  }

  async function run(statement: ReturnType<typeof sql>) {
    return rowsOf<Record<string, unknown>>(await t.database.db.execute(statement));
  }

  async function copiesOf(bookId: number) {
    const response = await t.request(`/books/${bookId}/copies?per_page=100`);
    expect(response.status).toBe(200);
    return (await json<PageDoc<CopyDocument>>(response)).data;
  }

  describe('copies', () => {
    it('a librarian adds copies, with a barcode and without, through the create control of the book\u2019s copies', async () => {
      const id = await addBook(t, 'Copied By Control', 1990, author);
      const doc = await book(t, id);
      expect(doc).toMatchObject({ copies_total: 1, copies_available: 1, available: true });
      const copiesHref = linkHref(doc, 'copies') as string;
      expect(copiesHref).toBeDefined();
      const page = await json<PageDoc<CopyDocument>>(await t.request(copiesHref));
      expect(page.data).toHaveLength(1);
      const create = controlOf(page, 'create');
      expect(create).toMatchObject({ method: 'POST' });
      // Its branch and item type are the defaults unless named (issue 45).
      expect(create.fields.map((f) => f.name)).toEqual(['barcode', 'branch_id', 'item_type_id']);

      const withBarcode = await submit(t, create, { barcode: '  LIB-0001 ' });
      expect(withBarcode.status).toBe(201);
      const first = await json<CopyDocument>(withBarcode);
      expect(withBarcode.headers.get('location')).toBe(`/copies/${first.id}`);
      expect(first).toMatchObject({ book_id: id, barcode: 'LIB-0001', status: 'available', withdrawn_at: null });
      const without = await submit(t, create);
      expect(without.status).toBe(201);
      expect(await json<CopyDocument>(without)).toMatchObject({ book_id: id, barcode: null, status: 'available' });

      expect(await book(t, id)).toMatchObject({ copies_total: 3, copies_available: 3, available: true });
      expect((await json<PageDoc<CopyDocument>>(await t.request(copiesHref))).data).toHaveLength(3);
      // The copy answers at its Location, to everyone who reads the catalogue.
      expect(await json<CopyDocument>(await t.anonymous.request(`/copies/${first.id}`))).toMatchObject({
        barcode: 'LIB-0001',
      });

      // Members and anonymous callers are not offered create, and are refused it.
      const reader = await member();
      expect(
        (await json<PageDoc<CopyDocument>>(await reader.client.request(copiesHref))).controls.create,
      ).toBeUndefined();
      await expectError(await reader.client.send('POST', `/books/${id}/copies`, {}), 403);
      await expectError(await t.anonymous.send('POST', `/books/${id}/copies`, {}), 401);
      expect(await book(t, id)).toMatchObject({ copies_total: 3 });
    });

    it('a barcode is unique in the library: a second copy with it is 409 and nothing changes', async () => {
      const one = await bookWithCopies(1);
      const other = await bookWithCopies(1);
      expect((await t.send('POST', `/books/${one}/copies`, { barcode: 'UNIQUE-7' })).status).toBe(201);
      for (const target of [one, other]) {
        await expectError(await t.send('POST', `/books/${target}/copies`, { barcode: 'UNIQUE-7' }), 409, {
          message: 'UNIQUE-7',
        });
      }
      expect(await copiesOf(one)).toHaveLength(2);
      expect(await copiesOf(other)).toHaveLength(1);
      expect(await book(t, one)).toMatchObject({ copies_total: 2, copies_available: 2 });
      expect(await book(t, other)).toMatchObject({ copies_total: 1, copies_available: 1 });
    });

    it('a blank or too long barcode is 400 with details.barcode, and no copy is added', async () => {
      const id = await bookWithCopies(1);
      for (const barcode of ['', '   ', 'x'.repeat(65)]) {
        await expectError(await t.send('POST', `/books/${id}/copies`, { barcode }), 400, {
          details: ['barcode'],
          what: JSON.stringify(barcode),
        });
      }
      expect((await t.send('POST', `/books/${id}/copies`, { barcode: 'y'.repeat(64) })).status).toBe(201);
      expect(await copiesOf(id)).toHaveLength(2);
    });

    it('a copy is withdrawn only while not on loan; a withdrawn copy is not counted', async () => {
      const id = await bookWithCopies(2);
      const reader = await member();
      const loan = await borrowed(reader.client, id);
      const lent = await json<CopyDocument>(await t.request(`/copies/${loan.copy_id}`));
      expect(lent).toMatchObject({ status: 'on_loan', due_at: loan.due_at });
      expect(lent.controls.withdraw).toBeUndefined();
      await expectError(await t.send('PATCH', `/copies/${loan.copy_id}`, { status: 'withdrawn' }), 409);

      const spare = (await copiesOf(id)).find((c) => c.id !== loan.copy_id) as { id: number };
      const shelved = await json<CopyDocument>(await t.request(`/copies/${spare.id}`));
      expect(shelved.status).toBe('available');
      // Members see where a copy is, but are offered no withdraw and refused it.
      expect(
        (await json<CopyDocument>(await reader.client.request(`/copies/${spare.id}`))).controls.withdraw,
      ).toBeUndefined();
      await expectError(await reader.client.send('PATCH', `/copies/${spare.id}`, { status: 'withdrawn' }), 403);

      const withdrawn = await submit(t, controlOf(shelved, 'withdraw'));
      expect(withdrawn.status).toBe(200);
      const body = await json<CopyDocument>(withdrawn);
      expect(body).toMatchObject({ id: spare.id, status: 'withdrawn', withdrawn_at: expect.any(String) });
      expect(body.controls.withdraw).toBeUndefined();
      await expectError(await t.send('PATCH', `/copies/${spare.id}`, { status: 'withdrawn' }), 409);

      expect(await book(t, id)).toMatchObject({ copies_total: 1, copies_available: 0, available: false });
      // Returned, the lent copy can go too; the book then has none.
      await returned(t, loan.id);
      expect(await book(t, id)).toMatchObject({ copies_total: 1, copies_available: 1 });
      expect((await t.send('PATCH', `/copies/${loan.copy_id}`, { status: 'withdrawn' })).status).toBe(200);
      expect(await book(t, id)).toMatchObject({ copies_total: 0, copies_available: 0, available: false });
      expect((await copiesOf(id)).map((c) => c.status)).toEqual(['withdrawn', 'withdrawn']);
      await expectError(await borrow(reader.client, id), 409);
    });

    it('listings show copies_total and copies_available, filter on available and sort on copies_available', async () => {
      const shelfAuthor = await addAuthor(t, 'Shelf Counting Author');
      const three = await bookWithCopies(3, shelfAuthor);
      const one = await bookWithCopies(1, shelfAuthor);
      const none = await bookWithCopies(2, shelfAuthor);
      const readers = [await member(), await member()];
      for (const reader of readers) await borrowed(reader.client, none);
      await borrowed((await member()).client, three);

      const scope = `filter=author_id:${shelfAuthor}`;
      const listed = await json<CollectionDocument<BookDocument>>(await t.request(`/books?${scope}&sort=id`));
      expect(
        listed.map((b: { id: number; copies_total: number; copies_available: number; available: boolean }) => [
          b.id,
          b.copies_total,
          b.copies_available,
          b.available,
        ]),
      ).toEqual([
        [three, 3, 2, true],
        [one, 1, 1, true],
        [none, 2, 0, false],
      ]);
      expect(
        ids(
          await json<CollectionDocument<BookDocument>>(
            await t.request(`/books?${scope}&filter=available:true&sort=id`),
          ),
        ),
      ).toEqual([three, one]);
      expect(
        ids(await json<CollectionDocument<BookDocument>>(await t.request(`/books?${scope}&filter=available:false`))),
      ).toEqual([none]);
      expect(
        ids(await json<CollectionDocument<BookDocument>>(await t.request(`/books?${scope}&sort=copies_available,id`))),
      ).toEqual([none, one, three]);
      expect(
        ids(await json<CollectionDocument<BookDocument>>(await t.request(`/books?${scope}&sort=-copies_available,id`))),
      ).toEqual([three, one, none]);
      // The page envelope says the same.
      const page = await json<PageDoc<BookDocument>>(
        await t.request(`/books?${scope}&filter=available:false&page=1&per_page=5`),
      );
      expect(page.data.map((b: { copies_available: number }) => b.copies_available)).toEqual([0]);
    });
  });

  describe('borrowing a copy', () => {
    it('a borrow takes any copy on the shelf; with none left it is 409 and the message says a hold is possible', async () => {
      const id = await bookWithCopies(2);
      const [a, b, c] = [await member(), await member(), await member()];
      const first = await borrowed(a.client, id);
      const second = await borrowed(b.client, id);
      const copies = ids(await copiesOf(id));
      expect(copies).toContain(first.copy_id);
      expect(copies).toContain(second.copy_id);
      expect(first.copy_id).not.toBe(second.copy_id);
      expect(first).toMatchObject({ book_id: id, renewals: 0, status: 'active' });
      expect(linkHref(first, 'copy')).toBe(`/copies/${first.copy_id}`);

      const doc = await book(c.client, id);
      expect(doc).toMatchObject({ available: false, copies_available: 0, copies_total: 2 });
      expect(doc.controls.borrow).toBeUndefined();
      expect(doc.controls.hold).toBeDefined();
      await expectError(await borrow(c.client, id), 409, { message: /hold/ });
    });

    it('a librarian may name the copy: the options list exactly the copies on the shelf; others are refused', async () => {
      const id = await bookWithCopies(3);
      const reader = await member();
      const elsewhere = await bookWithCopies(1);
      const [elsewhereCopy] = await copiesOf(elsewhere);
      const lent = await borrowed((await member()).client, id);
      const [, , third] = await copiesOf(id);
      expect((await t.send('PATCH', `/copies/${(third as { id: number }).id}`, { status: 'withdrawn' })).status).toBe(
        200,
      );

      const control = controlOf(await book(t, id), 'borrow');
      const copyField = control.fields.find((f) => f.name === 'copy_id');
      expect(remoteOptions(copyField)?.valueField).toBe('id');
      const options = await json<CollectionDocument<CopyDocument>>(
        await t.request(remoteOptions(copyField)?.href as string),
      );
      const onShelf = (await copiesOf(id)).filter((c) => c.status === 'available');
      expect(onShelf).toHaveLength(1);
      expect(ids(options)).toEqual(ids(onShelf));

      // A member is offered no copy_id (nor borrower_id).
      expect(controlOf(await book(reader.client, id), 'borrow').fields).toEqual([]);

      await expectError(await submit(t, control, { borrower_id: reader.id, copy_id: lent.copy_id }), 409);
      await expectError(
        await submit(t, control, { borrower_id: reader.id, copy_id: (third as { id: number }).id }),
        409,
      );
      await expectError(
        await submit(t, control, { borrower_id: reader.id, copy_id: (elsewhereCopy as { id: number }).id }),
        422,
        { details: ['copy_id'] },
      );
      expect(await book(t, id)).toMatchObject({ copies_available: 1 });

      const named = await submit(t, control, { borrower_id: reader.id, copy_id: (onShelf[0] as { id: number }).id });
      expect(named.status).toBe(201);
      expect(await json<LoanDocument>(named)).toMatchObject({
        book_id: id,
        borrower_id: reader.id,
        copy_id: onShelf[0]?.id,
      });
      expect(await book(t, id)).toMatchObject({ copies_available: 0, available: false });
    });

    it('one copy of a book per member: a second borrow is 409 and the book offers neither borrow nor hold', async () => {
      const id = await bookWithCopies(3);
      const reader = await member();
      await borrowed(reader.client, id);
      const doc = await book(reader.client, id);
      expect(doc.copies_available).toBe(2);
      expect(doc.controls.borrow).toBeUndefined();
      expect(doc.controls.hold).toBeUndefined();
      await expectError(await borrow(reader.client, id), 409, { message: 'already' });
      await expectError(await borrow(t, id, { borrower_id: reader.id }), 409);
      expect(await book(t, id)).toMatchObject({ copies_available: 2 });
    });
  });

  describe('holds', () => {
    /** A book with one copy, lent: holds can be placed on it. */
    async function lentBook() {
      const id = await bookWithCopies(1);
      const lender = await member();
      const loan = await borrowed(lender.client, id);
      return { id, loan, lender };
    }

    it('the queue is first come first served: each member sees their own place, a librarian the whole queue', async () => {
      const { id } = await lentBook();
      const queue = [await member(), await member(), await member()];
      const placed = [];
      for (const reader of queue) {
        const doc = await book(reader.client, id);
        expect(doc.controls.borrow).toBeUndefined();
        const response = await submit(reader.client, controlOf(doc, 'hold'));
        expect(response.status).toBe(201);
        expect(response.headers.get('location')).toMatch(/^\/holds\/\d+$/);
        placed.push(await json<HoldDocument>(response));
      }
      expect(placed.map((h) => [h.status, h.position, h.borrower_id])).toEqual(
        queue.map((reader, i) => ['waiting', i + 1, reader.id]),
      );

      for (const [i, reader] of queue.entries()) {
        const doc = await book(reader.client, id);
        expect(doc).toMatchObject({ hold_status: 'waiting', hold_position: i + 1, hold_ready_until: null });
        expect(doc.controls.hold).toBeUndefined();
        expect(doc.controls.borrow).toBeUndefined();
        expect(linkHref(doc, 'holds')).toBeUndefined();
        const own = await json<HoldDocument>(await reader.client.request(linkHref(doc, 'hold') as string));
        expect(own).toMatchObject({ id: placed[i]?.id, status: 'waiting', position: i + 1, book_id: id });
        expect(own.controls.cancel).toBeDefined();
        // Another member's hold does not exist for them; the queue is the librarians'.
        const next = queue[(i + 1) % queue.length] as Member;
        await expectError(await next.client.request(`/holds/${own.id}`), 404);
        await expectError(await reader.client.request(`/books/${id}/holds`), 403);
      }

      const librarianView = await book(t, id);
      expect(librarianView.hold_status).toBeUndefined();
      const listed = await json<PageDoc<HoldDocument>>(await t.request(linkHref(librarianView, 'holds') as string));
      expect(listed.data.map((h) => [h.id, h.position])).toEqual(placed.map((h, i) => [h.id, i + 1]));
    });

    it('a return with holds waiting sets the copy aside for the first, whom alone it may be lent to until then', async () => {
      const { id, loan } = await lentBook();
      const [first, second, passerby] = [await member(), await member(), await member()];
      const firstHold = await held(first.client, id);
      const secondHold = await held(second.client, id);

      const before = Date.now();
      await returned(t, loan.id);
      const ready = await json<HoldDocument>(await first.client.request(`/holds/${firstHold.id}`));
      expect(ready).toMatchObject({ status: 'ready', position: null, copy_id: loan.copy_id });
      expect(Math.abs(Date.parse(ready.ready_until ?? '') - (before + 7 * DAY_MS))).toBeLessThan(CLOCK_MARGIN_MS);
      expect(linkHref(ready, 'copy')).toBe(`/copies/${loan.copy_id}`);
      expect(await json<CopyDocument>(await t.request(`/copies/${loan.copy_id}`))).toMatchObject({ status: 'on_hold' });

      const forFirst = await book(first.client, id);
      expect(forFirst).toMatchObject({
        available: false,
        copies_available: 0,
        hold_status: 'ready',
        hold_position: null,
        hold_ready_until: ready.ready_until,
      });
      expect(forFirst.controls.borrow).toBeDefined();
      expect(linkHref(forFirst, 'hold')).toBe(`/holds/${firstHold.id}`);

      // Nobody else may borrow it: not the next in line, not a passer-by, not a librarian for themselves.
      expect(await book(second.client, id)).toMatchObject({ hold_status: 'waiting', hold_position: 1 });
      const forPasserby = await book(passerby.client, id);
      expect(forPasserby.controls.borrow).toBeUndefined();
      expect(forPasserby.controls.hold).toBeDefined();
      for (const client of [second.client, passerby.client, t]) await expectError(await borrow(client, id), 409);
      await expectError(await borrow(t, id, { borrower_id: passerby.id }), 409);

      const response = await submit(first.client, controlOf(forFirst, 'borrow'));
      expect(response.status).toBe(201);
      const lent = await json<LoanDocument>(response);
      expect(lent).toMatchObject({ borrower_id: first.id, copy_id: loan.copy_id });
      expect(await json<HoldDocument>(await first.client.request(`/holds/${firstHold.id}`))).toMatchObject({
        status: 'fulfilled',
        loan_id: lent.id,
        ended_at: expect.any(String),
      });
      expect(await json<HoldDocument>(await second.client.request(`/holds/${secondHold.id}`))).toMatchObject({
        status: 'waiting',
        position: 1,
      });
      const forFirstAfter = await book(first.client, id);
      expect(forFirstAfter.hold_status).toBeUndefined();
      expect(linkHref(forFirstAfter, 'hold')).toBeUndefined();
    });

    it('a librarian may lend a ready hold\u2019s copy to its member, to nobody else', async () => {
      const { id, loan } = await lentBook();
      const [first, other] = [await member(), await member()];
      await held(first.client, id);
      await returned(t, loan.id);
      // The librarian is offered the borrow to lend it, naming the borrower: for themselves it would be refused.
      const control = controlOf(await book(t, id), 'borrow');
      expect(control.fields).toContainEqual(expect.objectContaining({ name: 'borrower_id', required: true }));
      await expectError(await submit(t, control), 409, { message: /no copy of book \d+ is available/ });
      await expectError(await borrow(t, id, { borrower_id: other.id }), 409);
      const lent = await borrow(t, id, { borrower_id: first.id });
      expect(lent.status).toBe(201);
      expect(await json<LoanDocument>(lent)).toMatchObject({ borrower_id: first.id, copy_id: loan.copy_id });
    });

    async function expire(holdId: number) {
      await run(sql`update holds set ready_until = now() - interval '1 minute' where id = ${holdId}`);
    }

    it('a ready hold past its time expires: a read changes nothing, the sweep passes the copy to the next in line', async () => {
      const { id, loan } = await lentBook();
      const [first, second] = [await member(), await member()];
      const firstHold = await held(first.client, id);
      const secondHold = await held(second.client, id);
      await returned(t, loan.id);
      await expire(firstHold.id);

      // Reads show the first hold expired at once, but do not pass the copy on.
      expect(await json<HoldDocument>(await first.client.request(`/holds/${firstHold.id}`))).toMatchObject({
        status: 'expired',
        ended_at: expect.any(String),
      });
      const forFirst = await book(first.client, id);
      expect(forFirst.hold_status).toBeUndefined();
      expect(forFirst.controls.borrow).toBeUndefined();
      expect(await json<HoldDocument>(await second.client.request(`/holds/${secondHold.id}`))).toMatchObject({
        status: 'waiting',
        position: 1,
      });
      expect(await json<CopyDocument>(await t.request(`/copies/${loan.copy_id}`))).toMatchObject({ status: 'on_hold' });

      expect(await expireReadyHolds(t.database.db, { holdDays: 7, at: new Date() })).toBeGreaterThanOrEqual(1);
      const passed = await json<HoldDocument>(await second.client.request(`/holds/${secondHold.id}`));
      expect(passed).toMatchObject({ status: 'ready', copy_id: loan.copy_id });
      expect(Date.parse(passed.ready_until ?? '')).toBeGreaterThan(Date.now() + 6 * DAY_MS);
      expect(await json<HoldDocument>(await first.client.request(`/holds/${firstHold.id}`))).toMatchObject({
        status: 'expired',
      });
      await expectError(await borrow(first.client, id), 409);
      await borrowed(second.client, id);
    });

    it('a borrow attempt settles the book: the next in line borrows the copy of a hold past its time', async () => {
      const { id, loan } = await lentBook();
      const [first, second] = [await member(), await member()];
      const firstHold = await held(first.client, id);
      await held(second.client, id);
      await returned(t, loan.id);
      await expire(firstHold.id);
      const response = await borrow(second.client, id);
      expect(response.status).toBe(201);
      expect(await json<LoanDocument>(response)).toMatchObject({ borrower_id: second.id, copy_id: loan.copy_id });
    });

    it('with nobody waiting, the copy of a hold past its time goes back on the shelf', async () => {
      const { id, loan } = await lentBook();
      const first = await member();
      const firstHold = await held(first.client, id);
      await returned(t, loan.id);
      await expire(firstHold.id);
      await expireReadyHolds(t.database.db, { holdDays: 7, at: new Date() });
      expect(await json<CopyDocument>(await t.request(`/copies/${loan.copy_id}`))).toMatchObject({
        status: 'available',
      });
      const doc = await book((await member()).client, id);
      expect(doc).toMatchObject({ available: true, copies_available: 1 });
      expect(doc.controls.borrow).toBeDefined();
      // The member whose hold expired may borrow it like anyone.
      await borrowed(first.client, id);
    });

    it('a hold attempt settles the book too: with nobody waiting it is refused, the copy being back on the shelf', async () => {
      const { id, loan } = await lentBook();
      const first = await member();
      const firstHold = await held(first.client, id);
      await returned(t, loan.id);
      await expire(firstHold.id);
      const passerby = await member();
      await expectError(await placeHold(passerby.client, id), 409, { message: 'shelf' });
      const doc = await book(passerby.client, id);
      expect(doc).toMatchObject({ available: true, copies_available: 1 });
      expect(doc.controls.hold).toBeUndefined();
      expect((await submit(passerby.client, controlOf(doc, 'borrow'))).status).toBe(201);
    });

    it('a member cancels their own hold, waiting or ready (its copy passes on); a librarian any; another member none', async () => {
      const { id, loan } = await lentBook();
      const [a, b, c, d] = [await member(), await member(), await member(), await member()];
      const [ha, hb, hc, hd] = [
        await held(a.client, id),
        await held(b.client, id),
        await held(c.client, id),
        await held(d.client, id),
      ];

      // Another member: it does not exist for them.
      await expectError(await cancelHold(b.client, ha.id), 404);
      // A waiting hold, by its member through the control: those behind move up.
      const own = await json<HoldDocument>(await b.client.request(`/holds/${hb.id}`));
      const cancelling = await submit(b.client, controlOf(own, 'cancel'));
      expect(cancelling.status).toBe(200);
      expect(await json<HoldDocument>(cancelling)).toMatchObject({
        status: 'cancelled',
        position: null,
        ended_at: expect.any(String),
      });
      expect((await json<HoldDocument>(await c.client.request(`/holds/${hc.id}`))).position).toBe(2);
      await expectError(await cancelHold(b.client, hb.id), 409);
      expect((await json<HoldDocument>(await b.client.request(`/holds/${hb.id}`))).controls.cancel).toBeUndefined();

      // A ready hold: its copy goes to the next in line.
      await returned(t, loan.id);
      expect((await json<HoldDocument>(await a.client.request(`/holds/${ha.id}`))).status).toBe('ready');
      await cancelled(a.client, ha.id);
      expect(await json<HoldDocument>(await c.client.request(`/holds/${hc.id}`))).toMatchObject({
        status: 'ready',
        copy_id: loan.copy_id,
      });

      // A librarian cancels anyone's: a ready hold, then a waiting one; the copy ends on the shelf.
      await cancelled(t, hc.id);
      expect((await json<HoldDocument>(await d.client.request(`/holds/${hd.id}`))).status).toBe('ready');
      await cancelled(t, hd.id);
      expect(await book(t, id)).toMatchObject({ available: true, copies_available: 1 });
      expect(await json<CollectionDocument<HoldDocument>>(await t.request(`/books/${id}/holds`))).toEqual([]);
    });

    it('a hold is refused with a copy on the shelf, for a book on loan to the member, twice, and past the cap', async () => {
      const onShelf = await bookWithCopies(1);
      const reader = await member();
      const shelfDoc = await book(reader.client, onShelf);
      expect(shelfDoc.controls.hold).toBeUndefined();
      await expectError(await placeHold(reader.client, onShelf), 409, { message: 'shelf' });

      const { id, lender } = await lentBook();
      expect((await book(lender.client, id)).controls.hold).toBeUndefined();
      await expectError(await placeHold(lender.client, id), 409);

      await held(reader.client, id);
      await expectError(await placeHold(reader.client, id), 409);
      await expectError(await placeHold(t.anonymous, id), 401);
      expect(await json<CollectionDocument<HoldDocument>>(await t.request(`/books/${id}/holds`))).toHaveLength(1);
    });

    it('past CATALOGUE_MAX_HOLDS open holds a member is offered no hold and refused one', async () => {
      const capped = await openTestCatalogue({ access: { maxHolds: 2 } });
      try {
        const cappedAuthor = await addAuthor(capped, 'Capped Author');
        const lender = await addUser(capped, 'Capped Lender');
        const reader = await addUser(capped, 'Capped Reader');
        const books: number[] = [];
        for (let i = 0; i < 3; i++) {
          const id = await addBook(capped, `Capped ${i}`, 2001, cappedAuthor);
          await borrowed(capped.as(lender.token), id);
          books.push(id);
        }
        const asReader = capped.as(reader.token);
        for (const id of books.slice(0, 2)) await held(asReader, id);
        const third = await json<BookDocument>(await asReader.request(`/books/${books[2]}`));
        expect(third.controls.hold).toBeUndefined();
        await expectError(await placeHold(asReader, books[2] as number), 409, { message: '2' });
        // Cancelling one makes room again.
        const [mine] = await json<HoldDocument[]>(await asReader.request(`/users/${reader.id}/holds`));
        await cancelled(asReader, (mine as HoldDocument).id);
        expect((await json<BookDocument>(await asReader.request(`/books/${books[2]}`))).controls.hold).toBeDefined();
        await held(asReader, books[2] as number);
      } finally {
        await capped.close();
      }
    });
  });

  describe('renewals', () => {
    /** Moves a loan back in time: borrowed `ago` days ago, due `due` days from now. */
    async function age(loanId: number, ago: number, due: number) {
      await run(sql`update loans set borrowed_at = now() - make_interval(days => ${ago}),
        due_at = now() + make_interval(days => ${due}) where id = ${loanId}`);
    }

    it('renewing makes the loan due a loan period from now and counts it, up to CATALOGUE_MAX_RENEWALS', async () => {
      const id = await bookWithCopies(1);
      const reader = await member();
      const loan = await borrowed(reader.client, id);
      for (const renewals of [1, 2]) {
        await age(loan.id, 10, 4);
        const doc = await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`));
        expect(doc.controls.renew).toMatchObject({ href: `/loans/${loan.id}/renewals`, method: 'POST' });
        const before = Date.now();
        const response = await submit(reader.client, controlOf(doc, 'renew'));
        expect(response.status).toBe(200);
        const renewed = await json<LoanDocument>(response);
        expect(renewed).toMatchObject({ id: loan.id, renewals, status: 'active' });
        expect([dueInDays(before, 14), dueInDays(Date.now(), 14)]).toContain(renewed.due_at);
      }
      const spent = await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`));
      expect(spent.renewals).toBe(2);
      expect(spent.controls.renew).toBeUndefined();
      expect(spent.controls.return).toBeDefined();
      await expectError(await renew(reader.client, loan.id), 409, {
        message: '2',
      });
      expect((await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`))).renewals).toBe(2);
      // Someone else's loan does not exist for a member; a librarian may renew any (but not past the limit).
      await expectError(await renew((await member()).client, loan.id), 404);
    });

    it('an overdue loan is not renewable, nor one whose book someone holds', async () => {
      const id = await bookWithCopies(1);
      const reader = await member();
      const loan = await borrowed(reader.client, id);
      await run(sql`update loans set borrowed_at = now() - interval '20 days', due_at = now() - interval '1 day'
        where id = ${loan.id}`);
      const overdue = await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`));
      expect(overdue.status).toBe('overdue');
      expect(overdue.controls.renew).toBeUndefined();
      await expectError(await renew(reader.client, loan.id), 409, {
        message: 'overdue',
      });

      await age(loan.id, 5, 9);
      const dueAt = (await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`))).due_at;
      await held((await member()).client, id);
      const wanted = await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`));
      expect(wanted).toMatchObject({ status: 'active', renewals: 0, due_at: dueAt });
      expect(wanted.controls.renew).toBeUndefined();
      await expectError(await renew(reader.client, loan.id), 409, {
        message: 'waiting',
      });
      await expectError(await renew(t, loan.id), 409);
      expect(await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`))).toMatchObject({
        renewals: 0,
        due_at: dueAt,
      });
    });
  });

  describe('overdue loans and a member\u2019s own history', () => {
    it('overdue loans carry status overdue, filter as status:overdue, and the librarian root links exactly them', async () => {
      const reader = await member();
      const late = await borrowed(reader.client, await bookWithCopies(1));
      const onTime = await borrowed(reader.client, await bookWithCopies(1));
      const otherLate = await borrowed((await member()).client, await bookWithCopies(1));
      for (const loan of [late, otherLate]) {
        await run(sql`update loans set borrowed_at = now() - interval '30 days', due_at = now() - interval '2 days'
          where id = ${loan.id}`);
      }
      // Loans made earlier in this file may be overdue too: compare with what the database says.
      const expected = ids(
        (await run(sql`select id from loans where returned_at is null and due_at <= now() order by id`)) as {
          id: number;
        }[],
      );
      expect(expected).toEqual(expect.arrayContaining([late.id, otherLate.id]));
      expect(expected).not.toContain(onTime.id);

      const root = await json<RootDocument>(await t.request('/'));
      const overdueHref = linkHref(root, 'overdue') as string;
      expect(overdueHref).toBeDefined();
      const page = await json<PageDoc<LoanDocument>>(await t.request(overdueHref));
      expect(ids(page.data).sort((x, y) => x - y)).toEqual(expected);
      for (const loan of page.data) expect(loan.status).toBe('overdue');
      expect(
        ids(
          (await json<PageDoc<LoanDocument>>(await t.request('/loans?filter=status:overdue&per_page=100'))).data,
        ).sort((x, y) => x - y),
      ).toEqual(expected);
      // Active includes overdue.
      const active = ids(
        await json<CollectionDocument<LoanDocument>>(
          await t.request(`/loans?filter=status:active&filter=borrower_id:${reader.id}`),
        ),
      );
      expect(active.sort((x, y) => x - y)).toEqual([late.id, onTime.id]);

      // A member gets no overdue link; their own listing filters to their own overdue loans.
      const memberRoot = await json<RootDocument>(await reader.client.request('/'));
      expect(linkHref(memberRoot, 'overdue')).toBeUndefined();
      expect(
        ids(await json<CollectionDocument<LoanDocument>>(await reader.client.request('/loans?filter=status:overdue'))),
      ).toEqual([late.id]);
      expect((await json<LoanDocument>(await reader.client.request(`/loans/${late.id}`))).status).toBe('overdue');
    });

    it('a member reaches their loans and holds, current and past, from the root\u2019s me link', async () => {
      const reader = await member();
      const returnedLoan = await borrowed(reader.client, await bookWithCopies(1));
      await returned(t, returnedLoan.id);
      const currentLoan = await borrowed(reader.client, await bookWithCopies(1));
      const lentOut = await bookWithCopies(1);
      await borrowed((await member()).client, lentOut);
      const cancelledHold = await held(reader.client, lentOut);
      expect((await cancelHold(reader.client, cancelledHold.id)).status).toBe(200);
      const other = await bookWithCopies(1);
      await borrowed((await member()).client, other);
      const waitingHold = await held(reader.client, other);

      const root = await json<RootDocument>(await reader.client.request('/'));
      const me = await json<UserDocument>(await reader.client.request(linkHref(root, 'me') as string));
      expect(me.id).toBe(reader.id);
      const loans = await json<PageDoc<LoanDocument>>(await reader.client.request(linkHref(me, 'loans') as string));
      expect(
        loans.data
          .map((l: { id: number; status: string }) => [l.id, l.status])
          .sort((x, y) => (x[0] as number) - (y[0] as number)),
      ).toEqual([
        [returnedLoan.id, 'returned'],
        [currentLoan.id, 'active'],
      ]);
      const holds = await json<PageDoc<HoldDocument>>(await reader.client.request(linkHref(me, 'holds') as string));
      expect(
        holds.data
          .map((h: { id: number; status: string }) => [h.id, h.status])
          .sort((x, y) => (x[0] as number) - (y[0] as number)),
      ).toEqual([
        [cancelledHold.id, 'cancelled'],
        [waitingHold.id, 'waiting'],
      ]);
      // Another member's holds are not theirs to see.
      await expectError(await (await member()).client.request(linkHref(me, 'holds') as string), 404);
    });
  });

  describe('the change feed', () => {
    interface Event {
      type: string;
      links: { rel: string; href: string }[];
    }

    async function feed(client: TestClient, from: string): Promise<{ events: Event[]; next: string }> {
      const events: Event[] = [];
      for (let at = from; ; ) {
        const page = await json<ChangesPageDocument>(await client.request(at));
        events.push(...page.data);
        const next = linkHref(page, 'next') as string;
        if (page.data.length === 0) return { events, next };
        at = next;
      }
    }

    it('carries copy, hold and renewal events; hold events only to the holder (and librarians)', async () => {
      const start = (await feed(t, '/changes')).next;
      const [holder, lender, stranger] = [await member(), await member(), await member()];
      const id = await bookWithCopies(1);
      const added = await json<CopyDocument>(await t.send('POST', `/books/${id}/copies`, {}));
      expect((await t.send('PATCH', `/copies/${added.id}`, { status: 'withdrawn' })).status).toBe(200);
      const loan = await borrowed(lender.client, id);
      await renewed(lender.client, loan.id);
      const placed = await held(holder.client, id);
      await returned(t, loan.id);
      await cancelled(holder.client, placed.id);

      const about = (events: Event[]) =>
        events
          .filter((e) => !e.type.startsWith('book.') && !e.type.startsWith('author.'))
          .map((e) => [e.type, e.links[0]?.href]);
      const copyEvents = [
        ['copy.added', `/copies/${loan.copy_id}`],
        ['copy.added', `/copies/${added.id}`],
        ['copy.withdrawn', `/copies/${added.id}`],
      ];
      const holdEvents = [
        ['hold.placed', `/holds/${placed.id}`],
        ['hold.ready', `/holds/${placed.id}`],
        ['hold.ended', `/holds/${placed.id}`],
      ];
      const forLibrarian = about((await feed(t, start)).events).filter(
        ([, href]) => href?.startsWith('/copies/') || href === `/loans/${loan.id}` || href?.startsWith('/holds/'),
      );
      expect(forLibrarian).toEqual([
        ...copyEvents,
        ['loan.started', `/loans/${loan.id}`],
        ['loan.renewed', `/loans/${loan.id}`],
        holdEvents[0],
        ['loan.ended', `/loans/${loan.id}`],
        holdEvents[1],
        holdEvents[2],
      ]);
      expect(about((await feed(holder.client, start)).events)).toEqual([...copyEvents, ...holdEvents]);
      expect(about((await feed(lender.client, start)).events)).toEqual([
        ...copyEvents,
        ['loan.started', `/loans/${loan.id}`],
        ['loan.renewed', `/loans/${loan.id}`],
        ['loan.ended', `/loans/${loan.id}`],
      ]);
      expect(about((await feed(stranger.client, start)).events)).toEqual(copyEvents);
      expect(about((await feed(t.anonymous, start)).events)).toEqual(copyEvents);
    });
  });
});
