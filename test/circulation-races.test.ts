/**
 * Circulation races, through the app, on PGlite and (with DATABASE_URL) PostgreSQL. Requests are fired
 * together with Promise.all: on PostgreSQL they run at once over the pool; PGlite serialises them, which
 * must still give exactly one winner. Each race runs ROUNDS times on fresh books and members, and after
 * each the database is checked for what must never be: a copy lent twice, a loan of a withdrawn copy, a
 * ready hold whose copy is lent, a hold waiting while a copy is on the shelf, counters that are not true.
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
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrow, borrowed, held, placeHold, renew, returned, returnLoan } from './support/circulation.js';
import type { BookDocument, LoanDocument } from './support/documents.js';
import { expectError } from './support/errors.js';

const ROUNDS = 10;
const HOLD_DAYS = 7;

interface Member {
  id: number;
  client: TestClient;
}

describe('circulation races', () => {
  let t: TestCatalogue;
  let author: number;
  let serial = 0;

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Race Author');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function member(): Promise<Member> {
    const user = await addUser(t, `Racer ${++serial}`, 'member');
    return { id: user.id, client: t.as(user.token) };
  }

  async function run<T = Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<T[]> {
    return rowsOf<T>(await t.database.db.execute(statement));
  }

  async function oneCopyBook(): Promise<number> {
    return addBook(t, `Raced ${++serial}`, 2010, author);
  }

  const statuses = (responses: Response[]) => responses.map((r) => r.status);

  /** What must hold in the database whatever raced: each query lists the rows that break a rule. */
  async function expectInvariants(what: string) {
    const broken = {
      copyLentTwice: await run(sql`select copy_id from loans where returned_at is null group by copy_id
        having count(*) > 1`),
      borrowerWithTwoCopies: await run(sql`select book_id, borrower_id from loans where returned_at is null
        group by book_id, borrower_id having count(*) > 1`),
      withdrawnCopyLent: await run(sql`select l.id from loans l join copies c on c.id = l.copy_id
        where l.returned_at is null and c.withdrawn_at is not null`),
      readyHoldOnLentCopy: await run(sql`select h.id from holds h join loans l on l.copy_id = h.copy_id
        where h.status = 'ready' and l.returned_at is null`),
      readyHoldOnWithdrawnCopy: await run(sql`select h.id from holds h join copies c on c.id = h.copy_id
        where h.status = 'ready' and c.withdrawn_at is not null`),
      copyReadyTwice: await run(sql`select copy_id from holds where status = 'ready' group by copy_id
        having count(*) > 1`),
      waitingWithCopyOnShelf: await run(sql`select h.id from holds h where h.status = 'waiting' and exists (
        select 1 from copies c where c.book_id = h.book_id and c.withdrawn_at is null
          and not exists (select 1 from loans l where l.copy_id = c.id and l.returned_at is null)
          and not exists (select 1 from holds r where r.copy_id = c.id and r.status = 'ready'))`),
      countersUntrue: await run(sql`select b.id from books b cross join lateral (
          select count(*) filter (where c.withdrawn_at is null) as total,
                 count(*) filter (where c.withdrawn_at is null
                   and not exists (select 1 from loans l where l.copy_id = c.id and l.returned_at is null)
                   and not exists (select 1 from holds r where r.copy_id = c.id and r.status = 'ready')) as on_shelf
          from copies c where c.book_id = b.id) as counted
        where (b.copies_total, b.copies_available) is distinct from (counted.total::int, counted.on_shelf::int)`),
    };
    expect(broken, what).toEqual({
      copyLentTwice: [],
      borrowerWithTwoCopies: [],
      withdrawnCopyLent: [],
      readyHoldOnLentCopy: [],
      readyHoldOnWithdrawnCopy: [],
      copyReadyTwice: [],
      waitingWithCopyOnShelf: [],
      countersUntrue: [],
    });
  }

  it(`two members racing for the last copy: one 201, one 409 saying a hold is possible (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await oneCopyBook();
      const racers = [await member(), await member()];
      const responses = await Promise.all(racers.map((r) => borrow(r.client, id)));
      expect(statuses(responses).sort(), `round ${round}`).toEqual([201, 409]);
      const winner = racers[statuses(responses).indexOf(201)] as Member;
      const loser = responses[statuses(responses).indexOf(409)] as Response;
      await expectError(loser, 409, { message: /hold/, what: `round ${round}` });
      const loans = await run<{ borrower_id: number }>(
        sql`select borrower_id from loans where book_id = ${id} and returned_at is null`,
      );
      expect(loans).toEqual([{ borrower_id: winner.id }]);
      await expectInvariants(`round ${round}`);
    }
  });

  it(`a return racing a new hold: the hold is refused with the copy on the shelf, or placed and made ready (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await oneCopyBook();
      const [lender, holder] = [await member(), await member()];
      const loan = await borrowed(lender.client, id);
      const [returned, placed] = await Promise.all([returnLoan(lender.client, loan.id), placeHold(holder.client, id)]);
      expect(returned.status, `round ${round}`).toBe(200);
      const holds = await run<{ status: string; copy_id: number | null }>(
        sql`select status, copy_id from holds where book_id = ${id}`,
      );
      if (placed.status === 201) {
        // Placed before the return: the returned copy went to it.
        expect(holds, `round ${round}`).toEqual([{ status: 'ready', copy_id: loan.copy_id }]);
        expect((await json<BookDocument>(await holder.client.request(`/books/${id}`))).hold_status).toBe('ready');
      } else {
        await expectError(placed, 409, { message: 'shelf', what: `round ${round}` });
        expect(holds, `round ${round}`).toEqual([]);
        expect((await json<BookDocument>(await holder.client.request(`/books/${id}`))).available).toBe(true);
      }
      await expectInvariants(`round ${round}`);
    }
  });

  it(`two renewals at once with one left: one 200, one 409, counted once (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const reader = await member();
      const loan = await borrowed(reader.client, await oneCopyBook());
      await run(sql`update loans set renewals = 1 where id = ${loan.id}`);
      const responses = await Promise.all([0, 1].map(() => renew(reader.client, loan.id)));
      expect(statuses(responses).sort(), `round ${round}`).toEqual([200, 409]);
      await expectError(responses[statuses(responses).indexOf(409)] as Response, 409, { what: `round ${round}` });
      expect((await json<LoanDocument>(await reader.client.request(`/loans/${loan.id}`))).renewals).toBe(2);
      await expectInvariants(`round ${round}`);
    }
  });

  it(`two renewals at once with two left: both 200 and the count goes up by two, none lost (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const reader = await member();
      const loan = await borrowed(reader.client, await oneCopyBook());
      const responses = await Promise.all([0, 1].map(() => renew(reader.client, loan.id)));
      expect(statuses(responses), `round ${round}`).toEqual([200, 200]);
      expect(
        (await Promise.all(responses.map((r) => json<LoanDocument>(r)))).map((r) => r.renewals).sort(),
        `round ${round}`,
      ).toEqual([1, 2]);
      const [row] = await run<{ renewals: number }>(sql`select renewals from loans where id = ${loan.id}`);
      expect(row?.renewals).toBe(2);
      await expectInvariants(`round ${round}`);
    }
  });

  it(`a ready hold expiring while its member borrows: the loan, or the copy passed on, never both (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await oneCopyBook();
      const [lender, first, next] = [await member(), await member(), await member()];
      const loan = await borrowed(lender.client, id);
      const firstHold = await held(first.client, id);
      const nextHold = await held(next.client, id);
      await returned(lender.client, loan.id);
      // The hold's time runs out a moment from now: some rounds borrow before it, some after.
      const moment = (round % 5) * 10;
      await run(sql`update holds set ready_until = clock_timestamp() + make_interval(secs => ${moment / 1000})
        where id = ${firstHold.id}`);
      await new Promise((resolve) => setTimeout(resolve, (round * 7) % 40));
      const [response] = await Promise.all([
        borrow(first.client, id),
        expireReadyHolds(t.database.db, { holdDays: HOLD_DAYS, at: new Date() }),
      ]);
      // Whatever ran first, the book is settled once the moment has surely passed.
      await new Promise((resolve) => setTimeout(resolve, 60));
      await expireReadyHolds(t.database.db, { holdDays: HOLD_DAYS, at: new Date() });

      const holds = Object.fromEntries(
        (
          await run<{ id: number; status: string; copy_id: number | null }>(
            sql`select id, status, copy_id from holds where book_id = ${id}`,
          )
        ).map((h) => [h.id, h]),
      );
      const loans = await run<{ borrower_id: number; copy_id: number }>(
        sql`select borrower_id, copy_id from loans where book_id = ${id} and returned_at is null`,
      );
      if (response.status === 201) {
        expect(loans, `round ${round}`).toEqual([{ borrower_id: first.id, copy_id: loan.copy_id }]);
        expect(holds[firstHold.id]?.status).toBe('fulfilled');
        expect(holds[nextHold.id]?.status).toBe('waiting');
      } else {
        await expectError(response, 409, { what: `round ${round}` });
        expect(loans, `round ${round}`).toEqual([]);
        expect(holds[firstHold.id]?.status).toBe('expired');
        expect(holds[nextHold.id]).toMatchObject({ status: 'ready', copy_id: loan.copy_id });
      }
      await expectInvariants(`round ${round}`);
    }
  });

  it(`a withdrawal racing a borrow of the last copy: exactly one succeeds (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await oneCopyBook();
      const reader = await member();
      const [copy] = await run<{ id: number }>(sql`select id from copies where book_id = ${id}`);
      const [withdrawn, lent] = await Promise.all([
        t.send('PATCH', `/copies/${copy?.id}`, { status: 'withdrawn' }),
        borrow(reader.client, id),
      ]);
      expect([withdrawn.status, lent.status].sort(), `round ${round}`).toEqual(
        withdrawn.status === 200 ? [200, 409] : [201, 409],
      );
      const [state] = await run<{ withdrawn: boolean; lent: boolean }>(sql`select withdrawn_at is not null as withdrawn,
        exists (select 1 from loans where copy_id = ${copy?.id} and returned_at is null) as lent
        from copies where id = ${copy?.id}`);
      if (withdrawn.status === 200) {
        await expectError(lent, 409, { what: `round ${round}` });
        expect(state).toEqual({ withdrawn: true, lent: false });
        expect(await json<BookDocument>(await t.request(`/books/${id}`))).toMatchObject({
          copies_total: 0,
          available: false,
        });
      } else {
        await expectError(withdrawn, 409, { what: `round ${round}` });
        expect(state).toEqual({ withdrawn: false, lent: true });
      }
      await expectInvariants(`round ${round}`);
    }
  });
});
