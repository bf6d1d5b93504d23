/**
 * Reads from a streaming standby (PostgreSQL's own replication, on clusters the test creates): anonymous
 * reads go to the standby, not the primary; a caller who wrote reads it through another process at once
 * while the standby's replay is paused, when others do not see it yet; a standby further behind than the
 * lag allowed, or stopped, gets no reads and no request fails, and once it is back it answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from '../reliability/figures.js';
import { json } from '../support/catalogue.js';
import { borrowed } from '../support/circulation.js';
import type {
  AuthorDocument,
  BookDocument,
  ErrorDocument,
  LoanDocument,
  NewTokenDocument,
  PageDoc,
  UserDocument,
} from '../support/documents.js';
import { createReplicatedClusters, psql, type ReplicatedClusters } from '../support/pg-cluster.js';
import { millisecondsUntil } from '../support/poll.js';
import { ADMIN_TOKEN, call, clientOf, created, type RunningServer, startServer } from '../support/server.js';
import { SseReader } from '../support/sse.js';

let clusters: ReplicatedClusters;
/** A and B allow a minute of lag, so that a paused standby still answers their readers. */
let a: RunningServer;
let b: RunningServer;
/** C allows two seconds. */
let c: RunningServer;

beforeAll(async () => {
  clusters = await createReplicatedClusters();
  const start = (maxLag: string) =>
    startServer({
      database: { env: { DATABASE_URL: clusters.primary.url, DATABASE_REPLICA_URLS: clusters.standby.url } },
      // Live change streams read again only when notified: no keep-alive read comes to their rescue.
      env: {
        CATALOGUE_RATE_LIMITS: 'off',
        CATALOGUE_REPLICA_MAX_LAG: maxLag,
        CATALOGUE_CHANGES_KEEPALIVE_SECONDS: '300',
      },
    });
  // One after the other: the first migrates and loads the sample catalogue.
  a = await start('60');
  [b, c] = await Promise.all([start('60'), start('2')]);
  for (const server of [a, b, c]) await expectReplicaState(server, 'streaming');
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
  clusters?.drop();
});

interface ReplicaHealth {
  role: string;
  name: string;
  state: string;
  lag_seconds: number | null;
  lag_bytes: number | null;
}

async function health(server: RunningServer): Promise<{ text: string; replica: ReplicaHealth }> {
  // Starting a cluster blocks this process for seconds, long enough for the server to close the client's idle
  // keep-alive connection: a request that meets that closed socket is made again.
  const get = () => fetch(new URL('/health', server.url));
  const text = await (await get().catch(get)).text();
  const body = JSON.parse(text) as { databases: ReplicaHealth[] };
  return { text, replica: body.databases.find((d) => d.role === 'replica') as ReplicaHealth };
}

async function expectReplicaState(server: RunningServer, state: string, limitMs = 15_000): Promise<void> {
  const ms = await millisecondsUntil(async () => (await health(server)).replica.state === state, limitMs);
  expect(ms, `replica ${state} in /health`).toBeLessThan(limitMs);
}

/** Transactions committed in the catalogue's database of a cluster, as its statistics say. */
function commits(url: string): number {
  return Number(psql(url, 'select xact_commit from pg_stat_database where datname = current_database()'));
}

/**
 * Makes `reads` and answers how many transactions each cluster committed meanwhile. Backends report their
 * statistics when idle, at most every ten seconds: the standby's count is awaited until it has them all.
 */
async function countedTransactions(reads: () => Promise<number>): Promise<{ primary: number; standby: number }> {
  const before = { primary: commits(clusters.primary.url), standby: commits(clusters.standby.url) };
  const made = await reads();
  await millisecondsUntil(async () => commits(clusters.standby.url) - before.standby >= made, 25_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return {
    primary: commits(clusters.primary.url) - before.primary,
    standby: commits(clusters.standby.url) - before.standby,
  };
}

/** Reads anyone may make, of every kind sent to standbys: a book, pages, a search, streams, the feed, OAI-PMH. */
const anonymousReads = [
  '/books/1',
  '/books?page=1&per_page=5',
  '/books?query=ring&page=1',
  '/books',
  '/authors?page=1',
  '/changes?per_page=5',
  '/oai?verb=ListIdentifiers&metadataPrefix=oai_dc',
  '/suggestions?query=ri',
];

async function readAnonymously(server: RunningServer, rounds: number): Promise<number> {
  let made = 0;
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      anonymousReads.map(async (path) => {
        const response = await fetch(new URL(path, server.url), { headers: { Accept: 'application/json' } });
        expect(response.status, path).toBe(200);
        await response.arrayBuffer();
        made++;
      }),
    );
  }
  return made;
}

describe('read replicas', () => {
  it('anonymous reads of every kind go to the standby, not the primary', async () => {
    let made = 0;
    const counted = await countedTransactions(async () => {
      made = await readAnonymously(a, 60);
      return made;
    });
    // The probe's one query a second on each cluster, per server, is all the primary sees.
    expect(made).toBe(480);
    reportFigure('anonymous reads answered by the standby', counted.standby, 'transactions', `of ${made} reads`);
    reportFigure('transactions on the primary meanwhile', counted.primary, 'transactions', 'the probes only');
    expect(counted.standby).toBeGreaterThanOrEqual(made);
    expect(counted.primary).toBeLessThan(made / 5);
  }, 60_000);

  it('/health names each database by role, with the standby\u2019s lag, and never where they are', async () => {
    const { text, replica } = await health(a);
    expect(JSON.parse(text).databases[0]).toEqual({ role: 'primary' });
    expect(replica).toEqual({
      role: 'replica',
      name: 'replica 1',
      state: 'streaming',
      lag_seconds: expect.any(Number),
      lag_bytes: expect.any(Number),
    });
    for (const cluster of [clusters.primary, clusters.standby]) {
      expect(text).not.toContain(new URL(cluster.url).port);
    }
    expect(text).not.toMatch(/postgres:|127\.0\.0\.1|localhost/);
  });
});

describe('read-your-writes, across processes, while the standby lags', () => {
  it('a librarian reads the book they created through A, and a search and listing with it, through B', async () => {
    const author = await created<AuthorDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Lagging Author' }),
      'author',
    );
    psql(clusters.standby.url, 'select pg_wal_replay_pause()');
    try {
      const books: number[] = [];
      for (let i = 0; i < 15; i++) {
        const title = `Replayed Later Volume${i}x`;
        const book = await created<BookDocument>(
          await call(a, ADMIN_TOKEN, 'POST', '/books', { title, publication_year: 2024, author_id: author.id }),
          'book',
        );
        books.push(book.id);
        const read = await call(b, ADMIN_TOKEN, 'GET', `/books/${book.id}`);
        expect(read.status).toBe(200);
        expect(await json<BookDocument>(read)).toMatchObject({ id: book.id, title });
        const search = await json<PageDoc<BookDocument>>(
          await call(b, ADMIN_TOKEN, 'GET', `/books?query=volume${i}x&page=1`),
        );
        expect(search.data.map((found: { id: number }) => found.id)).toContain(book.id);
        const listing = await json<PageDoc<BookDocument>>(
          await call(b, ADMIN_TOKEN, 'GET', `/authors/${author.id}/books?page=1`),
        );
        expect(listing.data.map((listed: { id: number }) => listed.id).sort()).toEqual([...books].sort());
      }
      // Anyone else reads from the standby, which has not replayed them, through either process.
      for (const server of [a, b]) {
        expect((await fetch(new URL(`/books/${books[0]}`, server.url))).status).toBe(404);
        const listing = await json<PageDoc<BookDocument>>(
          await fetch(new URL(`/authors/${author.id}/books?page=1`, server.url)),
        );
        expect(listing.data).toEqual([]);
      }
      psql(clusters.standby.url, 'select pg_wal_replay_resume()');
      const ms = await millisecondsUntil(
        async () => (await fetch(new URL(`/books/${books.at(-1)}`, b.url))).status === 200,
        10_000,
      );
      expect(ms).toBeLessThan(10_000);
    } finally {
      psql(clusters.standby.url, 'select pg_wal_replay_resume()');
    }
  }, 60_000);

  it('a member who borrowed through A sees the loan through B at once', async () => {
    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: 'Lagging Member', role: 'member' }),
      'user',
    );
    const { token } = await created<NewTokenDocument>(
      await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}),
      'token',
    );
    const author = await created<AuthorDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Lent Author' }),
      'author',
    );
    const book = await created<BookDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/books', {
        title: 'Lent While Lagging',
        publication_year: 2020,
        author_id: author.id,
      }),
      'book',
    );
    psql(clusters.standby.url, 'select pg_wal_replay_pause()');
    try {
      const loan = await borrowed(clientOf(a, token), book.id);
      const loans = await json<PageDoc<LoanDocument>>(await call(b, token, 'GET', '/loans?page=1'));
      expect(loans.data.map((listed: { id: number }) => listed.id)).toContain(loan.id);
      expect(await json<BookDocument>(await call(b, token, 'GET', `/books/${book.id}`))).toMatchObject({
        available: false,
      });
      // Anonymous readers still see the book available, on the standby.
      expect(await json<BookDocument>(await fetch(new URL(`/books/${book.id}`, b.url)))).toMatchObject({
        available: true,
      });
    } finally {
      psql(clusters.standby.url, 'select pg_wal_replay_resume()');
    }
  });
});

describe('the live change feed while the standby lags', () => {
  it('an anonymous stream through B tells of a write through A at once, though the standby has not replayed it', async () => {
    const response = await fetch(new URL('/changes?from=now', b.url), {
      headers: { Accept: 'text/event-stream' },
      signal: AbortSignal.timeout(30_000),
    });
    expect(response.status).toBe(200);
    const sse = new SseReader(response);
    psql(clusters.standby.url, 'select pg_wal_replay_pause()');
    try {
      const author = await created<AuthorDocument>(
        await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Streamed Author' }),
        'author',
      );
      const [event] = await sse.events(1);
      expect(JSON.parse(event?.data ?? '{}')).toMatchObject({
        type: 'author.created',
        links: expect.arrayContaining([expect.objectContaining({ href: `/authors/${author.id}` })]),
      });
      // The author itself, read anonymously from the standby, is not there yet.
      const page = await json<ErrorDocument>(await fetch(new URL(`/authors/${author.id}`, b.url)));
      expect(page).toMatchObject({ error: { code: 404 } });
    } finally {
      await sse.cancel();
      psql(clusters.standby.url, 'select pg_wal_replay_resume()');
    }
  });
});

describe('lag and health', () => {
  it('a standby further behind than the lag allowed gets no reads until it catches up', async () => {
    await expectReplicaState(c, 'streaming');
    psql(clusters.standby.url, 'select pg_wal_replay_pause()');
    let book: { id: number };
    try {
      const author = await created<AuthorDocument>(
        await call(c, ADMIN_TOKEN, 'POST', '/authors', { name: 'Behind Author' }),
        'author',
      );
      book = await created<BookDocument>(
        await call(c, ADMIN_TOKEN, 'POST', '/books', { title: 'Behind', publication_year: 2020, author_id: author.id }),
        'book',
      );
      await expectReplicaState(c, 'lagging');
      const { replica } = await health(c);
      expect(replica.lag_seconds).toBeGreaterThanOrEqual(2);
      expect(replica.lag_bytes).toBeGreaterThan(0);
      // Read from the primary: anyone sees what the standby has not replayed.
      expect((await fetch(new URL(`/books/${book.id}`, c.url))).status).toBe(200);
      // A server allowing more lag still reads from it.
      expect((await health(a)).replica.state).toBe('streaming');
    } finally {
      psql(clusters.standby.url, 'select pg_wal_replay_resume()');
    }
    await expectReplicaState(c, 'streaming');
    expect((await health(c)).replica.lag_seconds).toBeLessThanOrEqual(2);
    const counted = await countedTransactions(() => readAnonymously(c, 20));
    expect(counted.standby).toBeGreaterThanOrEqual(160);
  }, 60_000);

  it('a stopped standby: every request still answers 200, from the primary; started again, it answers reads', async () => {
    clusters.standby.stop();
    try {
      // At once, before any probe noticed: a read that fails on the standby is made again on the primary.
      for (let round = 0; round < 3; round++) {
        await readAnonymously(c, 1);
        for (const path of ['/books/1', '/loans?page=1', '/books?query=ring&page=1', '/users?page=1']) {
          expect((await call(c, ADMIN_TOKEN, 'GET', path)).status, path).toBe(200);
        }
      }
      await expectReplicaState(c, 'down');
      const { replica } = await health(c);
      expect(replica.lag_seconds).toBeNull();
      await readAnonymously(c, 2);
    } finally {
      clusters.standby.start();
    }
    await expectReplicaState(c, 'streaming', 30_000);
    const counted = await countedTransactions(() => readAnonymously(c, 20));
    expect(counted.standby).toBeGreaterThanOrEqual(160);
    expect(c.output()).toMatch(/"replica":"replica 1".*"message":"replica down"/);
    expect(c.output()).not.toContain(new URL(clusters.standby.url).port);
  }, 90_000);

  it('while the primary is down, the standby still answers anonymous reads; signed-in reads are 503', async () => {
    await expectReplicaState(c, 'streaming');
    clusters.primary.stop();
    try {
      for (const path of ['/books/1', '/books?query=ring&page=1']) {
        expect((await fetch(new URL(path, c.url))).status, path).toBe(200);
      }
      expect((await call(c, ADMIN_TOKEN, 'GET', '/books/1')).status).toBe(503);
      expect((await call(c, ADMIN_TOKEN, 'POST', '/authors', { name: 'Not Now' })).status).toBe(503);
    } finally {
      clusters.primary.start();
    }
    const back = async () => (await fetch(new URL('/health', c.url)).catch(() => undefined))?.status === 200;
    expect(await millisecondsUntil(back, 20_000)).toBeLessThan(20_000);
  }, 60_000);
});
