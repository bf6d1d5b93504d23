/**
 * Failover on PostgreSQL's own streaming replication, with two server processes on one DATABASE_URL that
 * lists the standby and the primary: writes go to the primary; when it dies, writes answer 503 with
 * Retry-After at once until the standby is promoted, and then resume without a restart; both processes
 * listen again on the new primary, so a revocation and a change-feed wake-up still cross between them.
 * A primary that stays up but turns read-only (fenced) loses the service's connections the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENING_APPLICATION_NAME } from '../../src/db/listen.js';
import { reportFigure } from '../reliability/figures.js';
import { json } from '../support/catalogue.js';
import {
  type AuthorDocument,
  type ChangesPageDocument,
  linkOf,
  type NewTokenDocument,
  type UserDocument,
} from '../support/documents.js';
import { createReplicatedClusters, multiHostUrl, psql, type ReplicatedClusters } from '../support/pg-cluster.js';
import { millisecondsUntil } from '../support/poll.js';
import { call, created, type RunningServer, startServer } from '../support/server.js';
import { SseReader } from '../support/sse.js';

const ADMIN_TOKEN = 'failover-admin-token-0123456789abcdef';

const serverOptions = (url: string) => ({
  database: { env: { DATABASE_URL: url } },
  env: {
    CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
    CATALOGUE_SEED: 'none',
    CATALOGUE_RATE_LIMITS: 'off',
    // A live stream is woken by NOTIFY alone: its keep-alive is minutes away.
    CATALOGUE_CHANGES_KEEPALIVE_SECONDS: '300',
  },
});

/** A write through a server: the response, its body, and how long it took. */
async function writeAuthor(server: RunningServer, name: string) {
  const started = performance.now();
  const response = await call(server, ADMIN_TOKEN, 'POST', '/authors', { name });
  const body = await response.text();
  return { response, body, ms: performance.now() - started };
}

/** The catalogue's listening connections on one server. */
function listenersOn(url: string): number {
  return Number(
    psql(url, `select count(*) from pg_stat_activity where application_name = '${LISTENING_APPLICATION_NAME}'`),
  );
}

function expectUnavailable(write: Awaited<ReturnType<typeof writeAuthor>>) {
  expect(write.response.status, write.body).toBe(503);
  expect(Number(write.response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(JSON.parse(write.body)).toEqual({ error: { code: 503, message: expect.any(String) } });
}

describe('failover to a promoted standby, two server processes on a multi-host DATABASE_URL', () => {
  let clusters: ReplicatedClusters;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    clusters = await createReplicatedClusters();
    a = await startServer(serverOptions(multiHostUrl(clusters)));
    b = await startServer(serverOptions(multiHostUrl(clusters)));
  });

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    clusters?.drop();
  });

  it('writes go to the primary though the URL lists the standby first, and both processes listen there', async () => {
    for (const [server, name] of [
      [a, 'Written Through A'],
      [b, 'Written Through B'],
    ] as const) {
      expect((await writeAuthor(server, name)).response.status).toBe(201);
      expect(psql(clusters.primary.url, `select count(*) from authors where name = '${name}'`)).toBe('1');
    }
    expect(await millisecondsUntil(async () => listenersOn(clusters.primary.url) === 2)).toBeLessThan(5_000);
  });

  it('with the primary gone, a write is a 503 with Retry-After within a second until a standby is promoted', async () => {
    clusters.primary.stop();
    let slowest = 0;
    for (let i = 0; i < 4; i++) {
      const write = await writeAuthor(i % 2 === 0 ? a : b, `Written With No Primary ${i}`);
      expectUnavailable(write);
      slowest = Math.max(slowest, write.ms);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    reportFigure('slowest 503 with no primary', slowest, 'ms', 'bound: 1000 ms');
    expect(slowest).toBeLessThan(1_000);
  });

  it('once the standby is promoted, writes through both processes resume within ten seconds', async () => {
    const promoted = performance.now();
    clusters.standby.promote();
    let first: Awaited<ReturnType<typeof writeAuthor>> | undefined;
    for (let i = 0; performance.now() - promoted < 15_000; i++) {
      first = await writeAuthor(a, `Written After Promotion ${i}`);
      if (first.response.status === 201) break;
      expectUnavailable(first);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const resumed = performance.now() - promoted;
    reportFigure('first write after the promotion', resumed, 'ms', 'bound: 10000 ms');
    expect(first?.response.status).toBe(201);
    expect(resumed).toBeLessThan(10_000);
    expect((await writeAuthor(b, 'Written Through B After Promotion')).response.status).toBe(201);
  });

  it('both processes listen on the new primary, and a token revoked through A is refused by B within a second', async () => {
    const relistened = await millisecondsUntil(async () => listenersOn(clusters.standby.url) === 2, 10_000);
    reportFigure('both processes listening on the new primary', relistened, 'ms', 'after the first write');
    expect(relistened).toBeLessThan(10_000);

    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: 'Revoked After Failover', role: 'member' }),
      'user',
    );
    const token = await created<NewTokenDocument>(
      await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}),
      'token',
    );
    // Used on both, more than once, so that B remembers it.
    for (const server of [a, b, a, b]) expect((await call(server, token.token, 'GET', '/')).status).toBe(200);
    const revoked = await call(a, ADMIN_TOKEN, 'DELETE', `/users/${user.id}/tokens/${token.id}`);
    expect(revoked.status).toBe(204);
    const refused = await millisecondsUntil(async () => (await call(b, token.token, 'GET', '/')).status === 401);
    expect(refused, `B refused after ${refused} ms`).toBeLessThan(1_000);
  });

  it('a live change-feed stream on B hears a write made through A', async () => {
    let resume = '/changes';
    for (;;) {
      const page = await json<ChangesPageDocument>(await call(b, ADMIN_TOKEN, 'GET', resume));
      resume = linkOf(page, 'next').href;
      if (page.data.length === 0) break;
    }
    const stream = await fetch(new URL(resume, b.url), {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, Accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const sse = new SseReader(stream);
    try {
      const author = await created<AuthorDocument>(
        await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Heard On B' }),
        'author',
      );
      const heard = await Promise.race([
        sse.events(1),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('B heard nothing in 5 s')), 5_000)),
      ]);
      const event = JSON.parse(heard[0]?.data ?? '{}');
      expect(event.type).toBe('author.created');
      expect(event.links[0].href).toBe(`/authors/${author.id}`);
    } finally {
      await sse.cancel();
    }
  });
});

describe('a primary that stays up but turns read-only (fenced) while the standby is promoted', () => {
  let clusters: ReplicatedClusters;
  let a: RunningServer;

  beforeAll(async () => {
    clusters = await createReplicatedClusters();
    a = await startServer(serverOptions(multiHostUrl(clusters)));
  });

  afterAll(async () => {
    await a?.kill();
    clusters?.drop();
  });

  /** The service's sessions on a server: the pool's and the listening one, not this test's psql. */
  const sessionsOn = (url: string) =>
    Number(
      psql(
        url,
        "select count(*) from pg_stat_activity where backend_type = 'client backend' and application_name <> 'psql'",
      ),
    );

  it('writes move to the new primary after at most one 503 per pooled connection, and no session stays behind', async () => {
    // Concurrent writes, so that the pool holds several connections to the primary.
    const before = await Promise.all(Array.from({ length: 10 }, (_, i) => writeAuthor(a, `Before Fencing ${i}`)));
    expect(before.map((write) => write.response.status)).toEqual(Array(10).fill(201));
    expect(sessionsOn(clusters.primary.url)).toBeGreaterThan(1);

    psql(clusters.primary.url, 'alter system set default_transaction_read_only = on');
    psql(clusters.primary.url, 'select pg_reload_conf()');
    clusters.standby.promote();

    let refused = 0;
    let inARow = 0;
    for (let i = 0; inARow < 20 && i < 100; i++) {
      const write = await writeAuthor(a, `After Fencing ${i}`);
      if (write.response.status === 201) {
        inARow++;
      } else {
        expectUnavailable(write);
        refused++;
        inARow = 0;
      }
    }
    reportFigure('writes refused (503) after the primary was fenced', refused, 'requests', 'bound: 10, the pool');
    expect(inARow).toBe(20);
    expect(refused).toBeLessThanOrEqual(10);
    expect(psql(clusters.standby.url, "select count(*) from authors where name like 'After Fencing %'")).toBe('20');
    // The listening session learns of the fencing from its heartbeat and moves too.
    const left = await millisecondsUntil(async () => sessionsOn(clusters.primary.url) === 0, 10_000);
    reportFigure('every session gone from the fenced primary', left, 'ms', 'after 20 writes in a row');
    expect(left).toBeLessThan(10_000);
    expect(await millisecondsUntil(async () => listenersOn(clusters.standby.url) === 1)).toBeLessThan(5_000);
  });
});
