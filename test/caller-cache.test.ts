/**
 * Who a token belongs to is remembered between requests (`CallerCache`) and kept true by the database:
 * a token revoked, a user demoted or removed, or a loan taken, written by anyone (here straight into the
 * database, past this process's own requests), is seen within a second through LISTEN/NOTIFY. And the
 * cache itself: it remembers only while it listens, forgets everything when listening is lost, never
 * keeps an answer read while a change was announced, and stays within its bounds.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallerCache } from '../src/db/callers.js';
import type { ChannelListener } from '../src/db/listen.js';
import { loans, tokens, users } from '../src/db/schema/index.js';
import { hashTokenSecret } from '../src/domain/token.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { BookDocument, NewTokenDocument } from './support/documents.js';
import { millisecondsUntil } from './support/poll.js';

let t: TestCatalogue;
let bookId: number;
let otherBookId: number;

beforeAll(async () => {
  t = await openTestCatalogue({ access: { maxActiveLoans: 1 } });
  const authorId = await addAuthor(t, 'Cached Author');
  bookId = await addBook(t, 'Cached Book', 2001, authorId);
  otherBookId = await addBook(t, 'Another Cached Book', 2002, authorId);
});

afterAll(async () => {
  await t?.close();
});

/** Uses the token a few times, so that the process remembers it. */
async function useToken(token: string, path = `/books/${bookId}`) {
  for (let i = 0; i < 3; i++) expect((await t.as(token).request(path)).status).toBe(200);
}

describe('changes written straight into the database reach the remembered callers', () => {
  it('a revoked token is refused within a second', async () => {
    const member = await addUser(t, 'Revoked Straight');
    await useToken(member.token);
    await t.database.db.delete(tokens).where(eq(tokens.secretHash, hashTokenSecret(member.token)));
    const ms = await millisecondsUntil(
      async () => (await t.as(member.token).request(`/books/${bookId}`)).status === 401,
    );
    expect(ms, `${t.kind}: refused after ${ms} ms`).toBeLessThan(1000);
  });

  it('a removed user is refused within a second', async () => {
    const member = await addUser(t, 'Removed Straight');
    await useToken(member.token);
    await t.database.db.delete(users).where(eq(users.id, member.id));
    const ms = await millisecondsUntil(
      async () => (await t.as(member.token).request(`/books/${bookId}`)).status === 401,
    );
    expect(ms, `${t.kind}: refused after ${ms} ms`).toBeLessThan(1000);
  });

  it('a demoted librarian loses librarian rights within a second', async () => {
    const librarian = await addUser(t, 'Demoted Straight', 'librarian');
    await useToken(librarian.token, '/users');
    await t.database.db.update(users).set({ role: 'member' }).where(eq(users.id, librarian.id));
    const ms = await millisecondsUntil(async () => (await t.as(librarian.token).request('/users')).status === 403);
    expect(ms, `${t.kind}: refused after ${ms} ms`).toBeLessThan(1000);
  });

  it('a loan taken elsewhere counts against the cap within a second: the borrow control goes', async () => {
    const member = await addUser(t, 'Capped Straight');
    const offersBorrow = async () =>
      'borrow' in (await json<BookDocument>(await t.as(member.token).request(`/books/${bookId}`))).controls;
    expect(await offersBorrow()).toBe(true);
    await useToken(member.token);
    await t.database.db.insert(loans).values({
      bookId: otherBookId,
      copyId: sql`(select id from copies where book_id = ${otherBookId} limit 1)`,
      borrowerId: member.id,
      dueAt: new Date(Date.now() + 86_400_000),
      branchId: sql`default_branch()`,
      loanPeriod: 1,
      loanPeriodUnit: 'days',
      renewalsAllowed: 0,
      finePerDay: 0,
      graceDays: 0,
      lostCharge: 0,
      floating: false,
    });
    const ms = await millisecondsUntil(async () => !(await offersBorrow()));
    expect(ms, `${t.kind}: control gone after ${ms} ms`).toBeLessThan(1000);
    await t.database.db.delete(loans).where(eq(loans.borrowerId, member.id));
  });

  it('a token revoked through the API is refused at once', async () => {
    const member = await addUser(t, 'Revoked Over HTTP');
    const token = await json<NewTokenDocument>(await t.send('POST', `/users/${member.id}/tokens`, { name: 'revoked' }));
    await useToken(token.token);
    expect((await t.request(`/users/${member.id}/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.as(token.token).request(`/books/${bookId}`)).status).toBe(401);
  });
});

describe('CallerCache', () => {
  /** A cache whose notifications the test sends itself: the database's own never reach it. */
  function detachedCache(options = {}) {
    let listener: ChannelListener | undefined;
    const cache = new CallerCache(
      {
        ...t.database,
        listen: (_channel, l) => {
          listener = l;
        },
      },
      options,
    );
    return { cache, listener: () => listener as ChannelListener };
  }

  /** A user whose token is then deleted, so that only a remembered answer still knows it. */
  async function forgottenByTheDatabase(cache: CallerCache, name: string) {
    const member = await addUser(t, name);
    const hash = hashTokenSecret(member.token);
    expect(await cache.find(hash)).toMatchObject({ id: member.id, role: 'member' });
    await t.database.db.delete(tokens).where(eq(tokens.secretHash, hash));
    return { ...member, hash };
  }

  it('remembers nothing until it listens, then remembers', async () => {
    const { cache, listener } = detachedCache();
    const before = await forgottenByTheDatabase(cache, 'Before Listening');
    expect(await cache.find(before.hash)).toBeUndefined();
    listener().ready();
    const after = await forgottenByTheDatabase(cache, 'After Listening');
    expect(await cache.find(after.hash)).toMatchObject({ id: after.id });
  });

  it('forgets a user when told, and everything when listening is lost', async () => {
    const { cache, listener } = detachedCache();
    listener().ready();
    const first = await forgottenByTheDatabase(cache, 'Told About');
    const second = await forgottenByTheDatabase(cache, 'Not Told About');
    listener().notified(String(first.id));
    expect(await cache.find(first.hash)).toBeUndefined();
    expect(await cache.find(second.hash)).toMatchObject({ id: second.id });
    listener().lost();
    expect(await cache.find(second.hash)).toBeUndefined();
    // Not listening: nothing is remembered until listening again.
    const third = await forgottenByTheDatabase(cache, 'While Lost');
    expect(await cache.find(third.hash)).toBeUndefined();
  });

  it('does not remember an answer read while a change was announced', async () => {
    const { cache, listener } = detachedCache();
    listener().ready();
    const member = await addUser(t, 'Raced');
    const hash = hashTokenSecret(member.token);
    const lookup = cache.find(hash);
    listener().notified(String(member.id));
    expect(await lookup).toMatchObject({ id: member.id });
    await t.database.db.delete(tokens).where(eq(tokens.secretHash, hash));
    expect(await cache.find(hash)).toBeUndefined();
  });

  it('holds at most maxEntries, the least recently used going first, and trusts an entry for ttlMs only', async () => {
    const bounded = detachedCache({ maxEntries: 1 });
    bounded.listener().ready();
    const first = await forgottenByTheDatabase(bounded.cache, 'Evicted By Size');
    const second = await forgottenByTheDatabase(bounded.cache, 'Kept By Size');
    expect(await bounded.cache.find(first.hash)).toBeUndefined();
    expect(await bounded.cache.find(second.hash)).toMatchObject({ id: second.id });

    // The least recently used goes first: a caller seen again stays while others come and go.
    const recent = detachedCache({ maxEntries: 2 });
    recent.listener().ready();
    const frequent = await forgottenByTheDatabase(recent.cache, 'Seen Again');
    const once = await forgottenByTheDatabase(recent.cache, 'Seen Once');
    expect(await recent.cache.find(frequent.hash)).toMatchObject({ id: frequent.id });
    await forgottenByTheDatabase(recent.cache, 'Seen Last');
    expect(await recent.cache.find(once.hash)).toBeUndefined();
    expect(await recent.cache.find(frequent.hash)).toMatchObject({ id: frequent.id });

    const expiring = detachedCache({ ttlMs: 50 });
    expiring.listener().ready();
    const member = await forgottenByTheDatabase(expiring.cache, 'Expired');
    expect(await expiring.cache.find(member.hash)).toMatchObject({ id: member.id });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await expiring.cache.find(member.hash)).toBeUndefined();
  });
});
