/**
 * A book read decides its borrow and hold controls from the lending rules remembered in memory
 * (`LendingRulesCache`) and the caller's loans read with the caller, kept true by the database: a rule
 * changed through the API shows in the next read at once; one written straight into the database (past
 * this process's requests, as another process would) within a second, through LISTEN/NOTIFY; a loaned
 * copy whose item type changes recounts its borrower's loans. And the cache itself: it remembers only
 * while it listens, forgets on a notification and when listening is lost, and trusts the rules for
 * `ttlMs` only.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LendingRulesCache } from '../src/db/lending-rules.js';
import type { ChannelListener } from '../src/db/listen.js';
import { loanRules } from '../src/db/schema/index.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { BookDocument, ListEntryDocument, LoanRuleDocument } from './support/documents.js';
import { millisecondsUntil } from './support/poll.js';

let t: TestCatalogue;
let authorId: number;
let member: { id: number; token: string };
let dvd: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  authorId = await addAuthor(t, 'Remembered Rules Author');
  member = await addUser(t, 'Remembered Rules Reader');
  dvd = (await json<ListEntryDocument>(await t.send('POST', '/item-types', { code: 'cached-dvd', name: 'DVD' }))).id;
});

afterAll(async () => {
  await t?.close();
});

/** A book whose one copy is of the item type given. */
async function bookOfType(title: string, itemTypeId: number): Promise<number> {
  const bookId = await addBook(t, title, 2003, authorId);
  await t.database.db.execute(sql`update copies set item_type_id = ${itemTypeId} where book_id = ${bookId}`);
  return bookId;
}

async function offersBorrow(token: string, bookId: number): Promise<boolean> {
  return 'borrow' in (await json<BookDocument>(await t.as(token).request(`/books/${bookId}`))).controls;
}

describe("a book read's controls follow the lending rules", () => {
  it('a rule added, changed and removed through the API shows in the next read at once', async () => {
    const bookId = await bookOfType('Remembered DVD', dvd);
    expect(await offersBorrow(member.token, bookId)).toBe(true);
    const rule = await json<LoanRuleDocument>(
      await t.send('POST', '/loan-rules', { item_type_id: dvd, lendable: false }),
    );
    expect(await offersBorrow(member.token, bookId)).toBe(false);
    await t.send('PATCH', `/loan-rules/${rule.id}`, { lendable: true });
    expect(await offersBorrow(member.token, bookId)).toBe(true);
    await t.send('PATCH', `/loan-rules/${rule.id}`, { lendable: false });
    expect(await offersBorrow(member.token, bookId)).toBe(false);
    expect((await t.request(`/loan-rules/${rule.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await offersBorrow(member.token, bookId)).toBe(true);
  });

  it('a rule written straight into the database shows within a second', async () => {
    const bookId = await bookOfType('Straight DVD', dvd);
    expect(await offersBorrow(member.token, bookId)).toBe(true);
    const [inserted] = await t.database.db
      .insert(loanRules)
      .values({ itemTypeId: dvd, lendable: false })
      .returning({ id: loanRules.id });
    const id = inserted?.id as number;
    const refused = await millisecondsUntil(async () => !(await offersBorrow(member.token, bookId)));
    expect(refused, `${t.kind}: control gone after ${refused} ms`).toBeLessThan(1000);
    await t.database.db.update(loanRules).set({ lendable: true }).where(eq(loanRules.id, id));
    const lent = await millisecondsUntil(() => offersBorrow(member.token, bookId));
    expect(lent, `${t.kind}: control back after ${lent} ms`).toBeLessThan(1000);
    await t.database.db.delete(loanRules).where(eq(loanRules.id, id));
  });

  it('a copy on loan that changes its item type counts against the cap of its new type', async () => {
    const magazine = (
      await json<ListEntryDocument>(await t.send('POST', '/item-types', { code: 'cached-mag', name: 'Magazine' }))
    ).id;
    const capped = await addUser(t, 'Capped By Type');
    const rule = await json<LoanRuleDocument>(
      await t.send('POST', '/loan-rules', { item_type_id: magazine, max_loans: 1 }),
    );
    const lent = await bookOfType('Lent As A DVD', dvd);
    const wanted = await bookOfType('A Magazine Wanted', magazine);
    expect((await t.as(capped.token).send('POST', `/books/${lent}/borrow`, {})).status).toBe(201);
    expect(await offersBorrow(capped.token, wanted)).toBe(true);
    await t.database.db.execute(sql`update copies set item_type_id = ${magazine} where book_id = ${lent}`);
    const ms = await millisecondsUntil(async () => !(await offersBorrow(capped.token, wanted)));
    expect(ms, `${t.kind}: control gone after ${ms} ms`).toBeLessThan(1000);
    expect((await t.request(`/loan-rules/${rule.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('LendingRulesCache', () => {
  /** A cache whose notifications the test sends itself, on a clock the test moves. */
  function detachedCache(ttlMs = 60_000) {
    let listener: ChannelListener | undefined;
    const clock = { now: 0 };
    const cache = new LendingRulesCache(
      {
        ...t.database,
        listen: (_channel, l) => {
          listener = l;
        },
      },
      { ttlMs, now: () => clock.now },
    );
    return { cache, clock, listener: () => listener as ChannelListener };
  }

  /** A rule of its own, then changed in the database: only a remembered answer still has the old value. */
  async function changedBehind(cache: LendingRulesCache, finePerDay: number) {
    const [row] = await t.database.db
      .insert(loanRules)
      .values({ itemTypeId: dvd, branchId: sql`default_branch()`, finePerDay })
      .returning({ id: loanRules.id });
    const id = row?.id as number;
    const fineOf = async () => (await cache.rules()).rules.find((rule) => rule.id === id)?.fine_per_day;
    expect(await fineOf()).toBe(finePerDay);
    await t.database.db
      .update(loanRules)
      .set({ finePerDay: finePerDay + 1 })
      .where(eq(loanRules.id, id));
    return { fineOf, remove: () => t.database.db.delete(loanRules).where(eq(loanRules.id, id)) };
  }

  it('remembers nothing until it listens, forgets when told and when listening is lost', async () => {
    const { cache, listener } = detachedCache();
    const unheard = await changedBehind(cache, 10);
    expect(await unheard.fineOf()).toBe(11);
    await unheard.remove();

    listener().ready();
    const told = await changedBehind(cache, 20);
    expect(await told.fineOf()).toBe(20);
    listener().notified('loan_rules');
    expect(await told.fineOf()).toBe(21);
    await told.remove();

    // Remembered again once read, then lost.
    listener().notified('loan_rules');
    const lost = await changedBehind(cache, 30);
    expect(await lost.fineOf()).toBe(30);
    listener().lost();
    expect(await lost.fineOf()).toBe(31);
    await lost.remove();
  });

  it('trusts the rules for ttlMs only', async () => {
    const { cache, clock, listener } = detachedCache(50);
    listener().ready();
    const expiring = await changedBehind(cache, 40);
    clock.now = 49;
    expect(await expiring.fineOf()).toBe(40);
    clock.now = 50;
    expect(await expiring.fineOf()).toBe(41);
    await expiring.remove();
  });
});
