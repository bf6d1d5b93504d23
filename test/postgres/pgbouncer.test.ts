/**
 * The catalogue behind pgbouncer in transaction mode, where each transaction may run on another server
 * connection: with `DATABASE_PREPARE=false` two server processes serve reads, searches, writes and a loan
 * through it without a "prepared statement does not exist", and with `DATABASE_LISTEN_URL` on the direct
 * connection a token revoked through one is refused by the other within a second. Without the setting the
 * driver names its statements on whichever server connection it was handed, where they stay for other
 * clients' transactions to trip over (postgres.js re-prepares after "does not exist" outside a transaction,
 * which hides most failures but not the leak).
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENING_APPLICATION_NAME } from '../../src/db/listen.js';
import { json } from '../support/catalogue.js';
import { borrow, borrowed, returnLoan } from '../support/circulation.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import type {
  AuthorDocument,
  BookDocument,
  LoanDocument,
  NewTokenDocument,
  UserDocument,
} from '../support/documents.js';
import { type Pgbouncer, startPgbouncer } from '../support/pgbouncer.js';
import { millisecondsUntil } from '../support/poll.js';
import { call, clientOf, created, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'pgbouncer-admin-token-0123456789abcdef';
const SERVER_URL = process.env.DATABASE_URL as string;

/** Reads and searches over the sample catalogue, as many clients would send them. */
const READS = [
  '/books',
  '/books?query=pride',
  '/books?query=austen&per_page=5&page=1',
  '/books?query=prejudise',
  '/authors',
  '/authors?page=1&per_page=3',
  '/books/1',
  '/authors/1',
  '/books?sort=-publication_year&per_page=5&page=1',
  '/',
];

/**
 * Each read through each server at once, `rounds` times over (a round at a time, within the listing turns
 * a process gives): the statuses, and the failures' bodies.
 */
async function readsAtOnce(
  servers: RunningServer[],
  rounds: number,
): Promise<{ statuses: number[]; failures: string[] }> {
  const statuses: number[] = [];
  const failures: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const responses = await Promise.all(
      servers.flatMap((server) => READS.map((path) => call(server, ADMIN_TOKEN, 'GET', path))),
    );
    for (const response of responses) {
      statuses.push(response.status);
      const body = await response.text();
      if (response.status !== 200) failures.push(`${response.status} ${body}`);
    }
  }
  return { statuses, failures };
}

/**
 * The named statements on the server connections pgbouncer hands out, seen from several transactions at
 * once (each sees its own server connection's): the most any of them holds.
 */
async function namedStatementsThrough(pooledUrl: string): Promise<number> {
  const probe = postgres(pooledUrl, { max: 4, prepare: false, onnotice: () => {} });
  try {
    const counts = await Promise.all(
      Array.from({ length: 4 }, () => probe`select count(*)::int as n from pg_prepared_statements`),
    );
    return Math.max(...counts.map((rows) => rows[0]?.n as number));
  } finally {
    await probe.end();
  }
}

describe('two server processes behind pgbouncer in transaction mode, DATABASE_PREPARE=false', () => {
  let shared: PostgresDatabase;
  let pgbouncer: Pgbouncer;
  let admin: postgres.Sql;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    shared = await createPostgresDatabase(SERVER_URL, 'pgbouncer');
    pgbouncer = await startPgbouncer(SERVER_URL);
    admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
    const options = {
      database: {
        env: {
          DATABASE_URL: pgbouncer.through(shared.url),
          DATABASE_PREPARE: 'false',
          DATABASE_LISTEN_URL: shared.url,
        },
      },
      env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN, CATALOGUE_SEED: 'sample', CATALOGUE_RATE_LIMITS: 'off' },
    };
    a = await startServer(options);
    b = await startServer(options);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await admin?.end();
    await pgbouncer?.stop();
    await shared?.drop();
  });

  it('goes through pgbouncer: its log shows both servers logging in to the database', () => {
    expect(pgbouncer.output()).toContain(`login attempt: db=${shared.name} user=`);
  });

  it('answers reads and searches from both servers, 20 at a time, and names no statement on the pooled connections', async () => {
    const { statuses, failures } = await readsAtOnce([a, b], 5);
    expect(failures).toEqual([]);
    expect(statuses).toHaveLength(100);
    expect(a.output() + b.output()).not.toMatch(/prepared statement/);
    expect(await namedStatementsThrough(pgbouncer.through(shared.url))).toBe(0);
    // What it checks is what comes back, not how soon: 100 requests through a pool of 4 server connections
    // took over 30 s under the whole suite on a slow day, and about 1 s alone.
  }, 120_000);

  it('writes, lends and returns through it, each step seen by the other server', async () => {
    const author = await created<AuthorDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Pooled Author' }),
      'author',
    );
    const book = await created<BookDocument>(
      await call(b, ADMIN_TOKEN, 'POST', '/books', {
        title: 'Pooled Book',
        publication_year: 2025,
        author_id: author.id,
      }),
      'book',
    );
    expect(await json<BookDocument>(await call(a, ADMIN_TOKEN, 'GET', `/books/${book.id}`))).toMatchObject({
      title: 'Pooled Book',
    });
    const edited = await call(a, ADMIN_TOKEN, 'PATCH', `/books/${book.id}`, { title: 'Pooled Book, Revised' });
    expect(edited.status).toBe(200);
    expect(await (await call(b, ADMIN_TOKEN, 'GET', '/books?query=revised')).text()).toContain('Pooled Book, Revised');

    const member = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: 'Pooled Member', role: 'member' }),
      'user',
    );
    const token = (
      await created<NewTokenDocument>(await call(b, ADMIN_TOKEN, 'POST', `/users/${member.id}/tokens`, {}), 'token')
    ).token;
    const loan = await borrowed(clientOf(a, token), book.id);
    // The only copy is out: borrowing it again through the other server is refused by the database.
    expect((await borrow(clientOf(b, token), book.id)).status).toBe(409);
    const returned = await returnLoan(clientOf(b, token), loan.id);
    expect(returned.status, await returned.clone().text()).toBe(200);
    expect(await json<LoanDocument>(returned)).toMatchObject({ status: 'returned' });
    expect(a.output() + b.output()).not.toMatch(/prepared statement/);
  });

  it('listens on the direct connection, and a token revoked through one server is refused by the other within a second', async () => {
    // The listening sessions are the servers' own on the database server, not pgbouncer's pooled ones.
    const listening = await admin`
      select count(*)::int as n from pg_stat_activity
      where datname = ${shared.name} and application_name = ${LISTENING_APPLICATION_NAME}`;
    expect(listening[0]?.n).toBeGreaterThanOrEqual(2);

    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: 'Revoked Pooled', role: 'member' }),
      'user',
    );
    const token = await created<NewTokenDocument>(
      await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}),
      'token',
    );
    for (const server of [a, b, a, b]) expect((await call(server, token.token, 'GET', '/books/1')).status).toBe(200);
    expect((await call(a, ADMIN_TOKEN, 'DELETE', `/users/${user.id}/tokens/${token.id}`)).status).toBe(204);
    const ms = await millisecondsUntil(async () => (await call(b, token.token, 'GET', '/books/1')).status === 401);
    expect(ms).toBeLessThan(1000);
  });
});

describe('a server behind pgbouncer without DATABASE_PREPARE=false', () => {
  let shared: PostgresDatabase;
  let pgbouncer: Pgbouncer;
  let server: RunningServer;

  beforeAll(async () => {
    shared = await createPostgresDatabase(SERVER_URL, 'pgbouncer_named');
    // One server connection, so that the probe below lands on the one the catalogue used.
    pgbouncer = await startPgbouncer(SERVER_URL, { poolSize: 1 });
    server = await startServer({
      database: { env: { DATABASE_URL: pgbouncer.through(shared.url), DATABASE_LISTEN_URL: shared.url } },
      env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN, CATALOGUE_SEED: 'sample', CATALOGUE_RATE_LIMITS: 'off' },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.kill();
    await pgbouncer?.stop();
    await shared?.drop();
  });

  it('leaves named statements on the pooled server connection, where any client’s transaction lands', async () => {
    // One read at a time: in this mode, reads at once can hang (docs/operations.md, "Behind pgbouncer"),
    // and the leak shows without them.
    for (const path of READS) expect((await call(server, ADMIN_TOKEN, 'GET', path)).status, path).toBe(200);
    expect(await namedStatementsThrough(pgbouncer.through(shared.url))).toBeGreaterThan(0);
  });
});
