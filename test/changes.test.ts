/**
 * The change feed over HTTP, on PGlite and PostgreSQL: every create, update and delete of books and
 * authors, every loan started and ended, and the copy every new book comes with, in order, each once;
 * paging by cursor, where the last page's `next` is where to resume; a rolled-back change leaves no
 * event; visibility follows the policy; bad and expired cursors are refused in the error shape; the live
 * event stream resumes by `Last-Event-ID`, sends keep-alive comments, and frees its place when the
 * client goes away.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { pruneChanges } from '../src/db/queries/changes.js';
import { encodeChangeCursor } from '../src/domain/change.js';
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
import { borrow, borrowed, returned } from './support/circulation.js';
import {
  type BookDocument,
  type ChangesPageDocument,
  type CopyDocument,
  type ErrorDocument,
  type HalDocument,
  halHref,
  type LoanDocument,
  linkOf,
  type PageDoc,
  present,
  type RootDocument,
} from './support/documents.js';
import { SseReader } from './support/sse.js';

interface Event {
  id: number;
  type: string;
  at: string;
  links: { rel: string; href: string }[];
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVENT_STREAM = { Accept: 'text/event-stream' };

/** Follows `next` links from `href` until a page comes back empty; answers the events and where to resume. */
async function readAll(client: TestClient, href = '/changes'): Promise<{ events: Event[]; resume: string }> {
  const events: Event[] = [];
  for (let at = href; ; ) {
    const response = await client.request(at);
    expect(response.status).toBe(200);
    const page = await json<ChangesPageDocument>(response);
    events.push(...page.data);
    const next = linkHref(page, 'next') as string;
    if (page.data.length === 0) return { events, resume: next };
    at = next;
  }
}

/** The URI of a book's one copy: the one it came with (every new book has one, and says so in the feed). */
async function firstCopy(t: TestCatalogue, book: number): Promise<string> {
  const copies = await json<PageDoc<CopyDocument>>(
    await t.request(linkHref(await json<BookDocument>(await t.request(`/books/${book}`)), 'copies') as string),
  );
  expect(copies.data).toHaveLength(1);
  return linkOf(present(copies.data[0], 'the copy'), 'self').href;
}

/** The newest event's number, as a cursor: where a reader that has seen everything stands. */
async function resumePoint(t: TestCatalogue): Promise<string> {
  return (await readAll(t)).resume;
}

describe('the change feed', () => {
  let t: TestCatalogue;
  let member: { id: number; token: string };
  let other: { id: number; token: string };

  beforeAll(async () => {
    t = await openTestCatalogue({ changeStreams: { keepAliveMs: 100, maxStreams: 3 } });
    member = await addUser(t, 'Feed Member');
    other = await addUser(t, 'Other Member');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is linked from the root for everyone who may read the catalogue', async () => {
    for (const client of [t, t.anonymous, t.as(member.token)]) {
      const root = await json<RootDocument>(await client.request('/'));
      expect(linkHref(root, 'changes')).toBe('/changes');
    }
  });

  it('records every create, update and delete of books and authors, every loan and every copy added, in order, each once', async () => {
    const from = await resumePoint(t);
    const author = await addAuthor(t, 'Ada Feed');
    const book = await addBook(t, 'Feed One', 2001, author);
    const spare = await addBook(t, 'Feed Spare', 2002, author);
    const bookCopy = await firstCopy(t, book);
    const spareCopy = await firstCopy(t, spare);
    expect((await t.send('PATCH', `/books/${book}`, { title: 'Feed One, Revised' })).status).toBe(200);
    // A rename rewrites the books' search vectors: that is the author's change, not the books'.
    expect((await t.send('PATCH', `/authors/${author}`, { name: 'Ada Feedwell' })).status).toBe(200);
    const borrowed = await borrow(t.as(member.token), book);
    expect(borrowed.status).toBe(201);
    const loan = (await json<LoanDocument>(borrowed)).id;
    await returned(t.as(member.token), loan);
    expect((await t.request(`/books/${spare}`, { method: 'DELETE' })).status).toBe(204);
    const lonely = await addAuthor(t, 'Lonely Feed');
    expect((await t.request(`/authors/${lonely}`, { method: 'DELETE' })).status).toBe(204);

    const { events } = await readAll(t, from);
    // A new book comes with its first copy: copy.added follows its book.created. Borrowing and returning
    // change the book's counters, which are not a book.updated (the loan events say what happened).
    expect(events.map((e) => [e.type, e.links[0]?.rel, e.links[0]?.href])).toEqual([
      ['author.created', 'author', `/authors/${author}`],
      ['book.created', 'book', `/books/${book}`],
      ['copy.added', 'copy', bookCopy],
      ['book.created', 'book', `/books/${spare}`],
      ['copy.added', 'copy', spareCopy],
      ['book.updated', 'book', `/books/${book}`],
      ['author.updated', 'author', `/authors/${author}`],
      ['loan.started', 'loan', `/loans/${loan}`],
      ['loan.ended', 'loan', `/loans/${loan}`],
      // A deleted one still names the URI it had.
      ['book.deleted', 'book', `/books/${spare}`],
      ['author.created', 'author', `/authors/${lonely}`],
      ['author.deleted', 'author', `/authors/${lonely}`],
    ]);
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    for (const event of events) expect(event.at).toMatch(ISO_UTC);
  });

  it('records a write refused by the database as nothing, and a refused conditional update as nothing', async () => {
    const from = await resumePoint(t);
    const author = await addAuthor(t, 'Refused Writes');
    const book = await addBook(t, 'Refused Book', 1999, author);
    // Deleting an author who has books: the foreign key refuses it mid-statement.
    expect((await t.request(`/authors/${author}`, { method: 'DELETE' })).status).toBe(409);
    // A stale If-Match: the UPDATE matches no row.
    const stale = await t.send('PATCH', `/books/${book}`, { title: 'Never' }, { 'If-Match': '"999-x"' });
    expect(stale.status).toBe(412);
    const { events } = await readAll(t, from);
    expect(events.map((e) => e.type)).toEqual(['author.created', 'book.created', 'copy.added']);
  });

  it('leaves no event of a transaction rolled back, even after its triggers wrote them', async () => {
    const from = await resumePoint(t);
    const { db } = t.database;
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into authors (name) values ('Rolled Back Author')`);
        const [row] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::integer as n from changes`));
        expect(row?.n).toBeGreaterThan(0);
        // A book refused by a check: the whole transaction, the author's event with it, is undone.
        await tx.execute(
          sql`insert into books (title, publication_year, author_id) values ('Too Old', -5000, (select max(id) from authors))`,
        );
      }),
    ).rejects.toThrow();
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into authors (name) values ('Explicitly Rolled Back')`);
        tx.rollback();
      })
      .catch(() => {});
    const { events } = await readAll(t, from);
    expect(events).toEqual([]);
  });

  it('pages by cursor; the last page\u2019s next link answers empty until something new commits', async () => {
    const from = await resumePoint(t);
    const author = await addAuthor(t, 'Paged Author');
    // Five events: the author, and each book's book.created and the copy.added of its first copy.
    for (let i = 0; i < 2; i++) await addBook(t, `Paged ${i}`, 2000 + i, author);
    const first = await json<ChangesPageDocument>(await t.request(`${from}&per_page=2`));
    expect(first.data.map((e: Event) => e.type)).toEqual(['author.created', 'book.created']);
    expect(first.meta.per_page).toBe(2);
    const second = await json<ChangesPageDocument>(await t.request(linkHref(first, 'next') as string));
    const third = await json<ChangesPageDocument>(await t.request(linkHref(second, 'next') as string));
    expect([...second.data, ...third.data]).toHaveLength(3);
    expect([...second.data, ...third.data].map((e: Event) => e.type)).toEqual([
      'copy.added',
      'book.created',
      'copy.added',
    ]);
    const last = linkHref(third, 'next') as string;
    const empty = await json<ChangesPageDocument>(await t.request(last));
    expect(empty.data).toEqual([]);
    expect(linkHref(empty, 'next')).toBe(last);
    const later = await addAuthor(t, 'Later Author');
    const resumed = await json<ChangesPageDocument>(await t.request(last));
    expect(resumed.data.map((e: Event) => e.links[0]?.href)).toEqual([`/authors/${later}`]);
  });

  it('says on its first page where it begins and how long it keeps events', async () => {
    const page = await json<ChangesPageDocument>(await t.request('/changes'));
    expect(page.meta.begins_at).toMatch(ISO_UTC);
    expect(page.meta.retention_days).toBe(30);
    expect(linkHref(page, 'first')).toBe('/changes');
  });

  it('shows members their own loans only, and anonymous readers no loans at all', async () => {
    const from = await resumePoint(t);
    const author = await addAuthor(t, 'Lending Author');
    const mine = await addBook(t, 'Mine', 2010, author);
    const theirs = await addBook(t, 'Theirs', 2011, author);
    const myLoan = (await borrowed(t.as(member.token), mine)).id;
    const theirLoan = (await borrowed(t.as(other.token), theirs)).id;
    const loansSeen = async (client: TestClient) =>
      (await readAll(client, from)).events.filter((e) => e.type.startsWith('loan.')).map((e) => e.links[0]?.href);
    expect(await loansSeen(t.as(member.token))).toEqual([`/loans/${myLoan}`]);
    expect(await loansSeen(t.as(other.token))).toEqual([`/loans/${theirLoan}`]);
    expect(await loansSeen(t.anonymous)).toEqual([]);
    expect(await loansSeen(t)).toEqual([`/loans/${myLoan}`, `/loans/${theirLoan}`]);
    // Catalogue events are everyone's.
    const anonymous = await readAll(t.anonymous, from);
    expect(anonymous.events.map((e) => e.type)).toEqual([
      'author.created',
      'book.created',
      'copy.added',
      'book.created',
      'copy.added',
    ]);
  });

  it('refuses malformed cursors and Last-Event-IDs with 400, and cursors past the newest event', async () => {
    for (const cursor of ['nonsense!', 'YzEuLTE', 'x'.repeat(100), encodeChangeCursor(Number.MAX_SAFE_INTEGER)]) {
      const response = await t.request(`/changes?cursor=${encodeURIComponent(cursor)}`);
      expect(response.status).toBe(400);
      expect(Object.keys((await json<ErrorDocument>(response)).error)).toEqual(['code', 'message', 'details']);
    }
    const badId = await t.request('/changes', { headers: { ...EVENT_STREAM, 'Last-Event-ID': 'garbage' } });
    expect(badId.status).toBe(400);
    expect((await json<ErrorDocument>(badId)).error.details).toHaveProperty('Last-Event-ID');
    for (const query of ['per_page=0', 'per_page=101', 'per_page=x', 'page=2', 'cursor=a&cursor=b']) {
      expect((await t.request(`/changes?${query}`)).status).toBe(400);
    }
  });

  it('answers 410 for a cursor older than retention, and its first page then begins later', async () => {
    const old = await resumePoint(t);
    await addAuthor(t, 'Before The Cut');
    const { db } = t.database;
    await db.execute(sql`update changes set at = at - interval '40 days'`);
    const newer = await addAuthor(t, 'After The Cut');
    expect(await pruneChanges(db, { retentionDays: 30 })).toBeGreaterThan(0);
    const gone = await t.request(old);
    expect(gone.status).toBe(410);
    expect((await json<ErrorDocument>(gone)).error.message).toContain('first page');
    const streamed = await t.request(old, { headers: EVENT_STREAM });
    expect(streamed.status).toBe(410);
    const first = await json<ChangesPageDocument>(await t.request('/changes'));
    expect(first.data.map((e: Event) => e.links[0]?.href)).toEqual([`/authors/${newer}`]);
  });

  it('is offered in HAL, HAL-FORMS and HTML too', async () => {
    for (const accept of ['application/hal+json', 'application/prs.hal-forms+json', 'text/html']) {
      const response = await t.request('/changes?per_page=1', { headers: { Accept: accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(accept);
    }
    const hal = await json<HalDocument>(
      await t.request('/changes?per_page=1', { headers: { Accept: 'application/hal+json' } }),
    );
    expect(hal._embedded?.item).toHaveLength(1);
    expect(halHref(hal, 'next')).toContain('cursor=');
  });
});

describe('the change feed as a live event stream', () => {
  let t: TestCatalogue;
  const { open, cancelAll } = streamReaders();

  beforeAll(async () => {
    t = await openTestCatalogue({ changeStreams: { keepAliveMs: 100, maxStreams: 3 } });
  });
  afterEach(cancelAll);
  afterAll(async () => {
    await t?.close();
  });

  it('streams events as they commit, resumes by Last-Event-ID with nothing lost or repeated', async () => {
    const from = await resumePoint(t);
    const stream = await t.request(from, { headers: EVENT_STREAM });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = open(stream);
    const author = await addAuthor(t, 'Streamed Author');
    const b1 = await addBook(t, 'Streamed One', 2020, author);
    const firstEvents = await reader.events(3);
    expect(firstEvents.map((e) => e.event)).toEqual(['author.created', 'book.created', 'copy.added']);
    const data = JSON.parse(firstEvents[1]?.data as string);
    expect(data).toMatchObject({ type: 'book.created', links: [{ rel: 'book', href: `/books/${b1}` }] });
    expect(JSON.parse(firstEvents[2]?.data as string)).toMatchObject({
      type: 'copy.added',
      links: [{ rel: 'copy', href: await firstCopy(t, b1) }],
    });
    await reader.cancel();

    // Written while no stream is open: a reconnect with the last id gets them, and only them.
    const b2 = await addBook(t, 'While Away', 2021, author);
    const b3 = await addBook(t, 'Still Away', 2022, author);
    const again = open(
      await t.request('/changes', { headers: { ...EVENT_STREAM, 'Last-Event-ID': firstEvents[2]?.id as string } }),
    );
    const b4 = await addBook(t, 'After Return', 2023, author);
    const resumed = await again.events(6);
    expect(resumed.map((e) => JSON.parse(e.data).links[0].href)).toEqual([
      `/books/${b2}`,
      await firstCopy(t, b2),
      `/books/${b3}`,
      await firstCopy(t, b3),
      `/books/${b4}`,
      await firstCopy(t, b4),
    ]);
    await again.cancel();
  });

  it('shows a member only their own loans live', async () => {
    const member = await addUser(t, 'Live Member');
    const other = await addUser(t, 'Live Other');
    const author = await addAuthor(t, 'Live Lender');
    const mine = await addBook(t, 'Live Mine', 2000, author);
    const theirs = await addBook(t, 'Live Theirs', 2000, author);
    const reader = open(await t.as(member.token).request(await resumePoint(t), { headers: EVENT_STREAM }));
    await borrow(t.as(other.token), theirs);
    const loan = (await borrowed(t.as(member.token), mine)).id;
    const [event] = await reader.events(1);
    expect(event?.event).toBe('loan.started');
    expect(JSON.parse(event?.data as string).links[0].href).toBe(`/loans/${loan}`);
    await reader.cancel();
  });

  it('sends keep-alive comments while nothing happens', async () => {
    const reader = open(await t.request(await resumePoint(t), { headers: EVENT_STREAM }));
    expect(await reader.untilComment('keep-alive')).toEqual([]);
    expect(await reader.untilComment('keep-alive')).toEqual([]);
    await reader.cancel();
  });

  it('frees a stream when its client goes away, and refuses streams beyond the bound with 503', async () => {
    await waitForNoStreams(t);
    const three = await Promise.all(
      [1, 2, 3].map(async () => open(await t.request('/changes', { headers: EVENT_STREAM }))),
    );
    expect(t.changeStreams.open).toBe(3);
    const refused = await t.request('/changes', { headers: EVENT_STREAM });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(Object.keys((await json<ErrorDocument>(refused)).error)).toEqual(['code', 'message']);
    // Pages are still served meanwhile.
    expect((await t.request('/changes?per_page=1')).status).toBe(200);
    for (const reader of three) await reader.cancel();
    await waitForNoStreams(t);
    const after = open(await t.request('/changes', { headers: EVENT_STREAM }));
    expect(t.changeStreams.open).toBe(1);
    await after.cancel();
  });

  it('ends a stream when the request is aborted', async () => {
    await waitForNoStreams(t);
    const controller = new AbortController();
    const response = await t.request('/changes', { headers: EVENT_STREAM, signal: controller.signal });
    expect(t.changeStreams.open).toBe(1);
    controller.abort();
    await response.body?.cancel().catch(() => {});
    await waitForNoStreams(t);
  });

  it('prefers a page when Accept likes JSON better, and a stream when it names only the stream', async () => {
    const page = await t.request('/changes', { headers: { Accept: 'application/json, text/event-stream;q=0.5' } });
    expect(page.headers.get('content-type')).toContain('application/json');
    const refused = await t.request('/changes', { headers: { Accept: 'image/png' } });
    expect(refused.status).toBe(406);
    const head = await t.request('/changes', { method: 'HEAD', headers: EVENT_STREAM });
    expect(head.status).toBe(200);
    expect(t.changeStreams.open).toBe(0);
  });
});

describe('the change feed\u2019s backlog as a live event stream', () => {
  let t: TestCatalogue;
  /** Events written before any stream opens: ten pages of the stream's reads. */
  const BACKLOG = 1_000;
  const { open, cancelAll } = streamReaders();

  beforeAll(async () => {
    // A keep-alive far longer than the tests: a stream that waits for one before its next page fails them.
    t = await openTestCatalogue({ changeStreams: { keepAliveMs: 120_000 } });
    await t.database.db.execute(
      sql`insert into authors (name) select 'Backlog Author ' || n from generate_series(1, ${BACKLOG}) as n`,
    );
  });
  afterEach(cancelAll);
  afterAll(async () => {
    await t?.close();
  });

  it('sends everything already there at once, page after page, from the oldest event or a cursor', {
    timeout: 20_000,
  }, async () => {
    const total = (await readAll(t)).events.length;
    expect(total).toBeGreaterThanOrEqual(BACKLOG);
    const fromOldest = open(await t.request('/changes', { headers: EVENT_STREAM }));
    const all = await fromOldest.events(total);
    expect(all.map((e) => JSON.parse(e.data).type).filter((type) => type === 'author.created')).toHaveLength(BACKLOG);
    expect(new Set(all.map((e) => e.id)).size).toBe(total);
    const fromCursor = open(await t.request(`/changes?cursor=${all[9]?.id}`, { headers: EVENT_STREAM }));
    expect((await fromCursor.events(total - 10)).map((e) => e.id)).toEqual(all.slice(10).map((e) => e.id));
    // And then it waits for what commits next.
    const later = await addAuthor(t, 'After The Backlog');
    const [next] = await fromOldest.events(1);
    expect(JSON.parse(next?.data as string).links[0].href).toBe(`/authors/${later}`);
  });

  it('starts after the newest event with from=now, as a page and as a stream, and links there as last', async () => {
    const page = await json<ChangesPageDocument>(await t.request('/changes?from=now'));
    expect(page.data).toEqual([]);
    expect(linkHref(page, 'self')).toBe('/changes?from=now');
    expect(linkHref(await json<ChangesPageDocument>(await t.request('/changes')), 'last')).toBe('/changes?from=now');
    const live = open(await t.request(linkHref(page, 'last') as string, { headers: EVENT_STREAM }));
    const author = await addAuthor(t, 'From Now On');
    const [first] = await live.events(1);
    expect(JSON.parse(first?.data as string).links[0].href).toBe(`/authors/${author}`);
    // The page's next link resumes where from=now stood: the author is the one event after it.
    const resumed = await json<ChangesPageDocument>(await t.request(linkHref(page, 'next') as string));
    expect(resumed.data.map((e: Event) => e.links[0]?.href)).toEqual([`/authors/${author}`]);
    // A reconnecting EventSource sends Last-Event-ID to the same URL: it resumes there, not from now.
    const reconnected = open(
      await t.request('/changes?from=now', { headers: { ...EVENT_STREAM, 'Last-Event-ID': cursorOf(page) } }),
    );
    expect(JSON.parse(((await reconnected.events(1))[0]?.data ?? '') as string).links[0].href).toBe(
      `/authors/${author}`,
    );
  });

  it('refuses an unknown start, and from together with a cursor', async () => {
    for (const query of ['from=newest', 'from=now&from=now', `from=now&cursor=${encodeChangeCursor(0)}`]) {
      const response = await t.request(`/changes?${query}`);
      expect(response.status).toBe(400);
      expect((await json<ErrorDocument>(response)).error.details).toHaveProperty('from');
    }
  });
});

/** The cursor a page's `next` link carries: where the page stood. */
function cursorOf(page: { links: { rel: string; href: string }[] }): string {
  return new URL(linkHref(page, 'next') as string, 'http://x').searchParams.get('cursor') as string;
}

describe('the change feed in a closed catalogue', () => {
  let t: TestCatalogue;
  beforeAll(async () => {
    t = await openTestCatalogue({ access: { publicReads: false } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows anonymous callers nothing, and no link to it', async () => {
    await addAuthor(t, 'Closed Author');
    const root = await json<RootDocument>(await t.anonymous.request('/'));
    expect(linkHref(root, 'changes')).toBeUndefined();
    expect((await t.anonymous.request('/changes')).status).toBe(401);
    expect((await t.anonymous.request('/changes', { headers: EVENT_STREAM })).status).toBe(401);
    expect((await json<ChangesPageDocument>(await t.request('/changes'))).data.length).toBeGreaterThan(0);
  });
});

/**
 * Readers of the event streams a test opens, each remembered so that a test failing before it cancels one
 * leaves no stream open to the next (`cancelAll` after each).
 */
function streamReaders() {
  const readers: SseReader[] = [];
  return {
    open(response: Response): SseReader {
      const reader = new SseReader(response);
      readers.push(reader);
      return reader;
    },
    async cancelAll(): Promise<void> {
      for (const reader of readers.splice(0)) await reader.cancel();
    },
  };
}

/** Streams end asynchronously after their client went away: waits (without a time assertion) until none is open. */
async function waitForNoStreams(t: TestCatalogue): Promise<void> {
  while (t.changeStreams.open > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}
