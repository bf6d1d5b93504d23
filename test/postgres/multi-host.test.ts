/**
 * postgres.js on a multi-host URL, as patched (patches/postgres+3.4.9.patch): a query fails once every
 * host was tried rather than waiting for ever (with one host too, when it accepts and closes at once, as
 * HAProxy does with no server up), and a host that accepts connections but never answers is skipped after
 * the connect timeout like one that refuses. The failover itself is
 * test/postgres/failover.test.ts.
 */
import { createServer, type Server, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A TCP server that accepts connections and never says a word, like a host behind a black hole. */
async function silentServer(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { server, port } = await silentServer();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('postgres.js with several hosts', () => {
  const serverUrl = new URL(process.env.DATABASE_URL as string);
  let silent: Awaited<ReturnType<typeof silentServer>>;

  beforeAll(async () => {
    silent = await silentServer();
  });

  afterAll(async () => {
    for (const socket of silent.sockets) socket.destroy();
    await new Promise((resolve) => silent.server.close(resolve));
  });

  it('fails a query within a second when every host refuses, instead of waiting for ever', async () => {
    const [first, second] = [await closedPort(), await closedPort()];
    const sql = postgres(`postgres://postgres@127.0.0.1:${first},127.0.0.1:${second}/postgres`, {
      max: 1,
      connect_timeout: 1,
      target_session_attrs: 'read-write',
    });
    try {
      const started = performance.now();
      const failure = await Promise.race([
        sql`select 1`.then(
          () => 'answered',
          (error: { code?: string }) => error.code,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
      ]);
      expect(failure).toMatch(/^(ECONNREFUSED|CONNECTION_CLOSED|CONNECTION_DESTROYED)$/);
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await sql.end({ timeout: 0 });
    }
  });

  it('fails a query when its one host accepts and closes at once (HAProxy with no server up), without looping', async () => {
    const closing = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const { port } = closing.address() as { port: number };
    const sql = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, connect_timeout: 1 });
    try {
      const started = performance.now();
      const failure = await Promise.race([
        sql`select 1`.then(
          () => 'answered',
          (error: { code?: string }) => error.code,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
      ]);
      expect(failure).toMatch(/^(ECONNRESET|CONNECTION_CLOSED)$/);
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await sql.end({ timeout: 0 });
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('skips a host that accepts but never answers, after the connect timeout, for the next one', async () => {
    const sql = postgres(
      `postgres://postgres@127.0.0.1:${silent.port},${serverUrl.host}${serverUrl.pathname}?target_session_attrs=read-write`,
      { max: 1, connect_timeout: 1, onnotice: () => {} },
    );
    try {
      const [row] = await sql`select 1 as one`;
      expect(row?.one).toBe(1);
      expect(silent.sockets.length).toBeGreaterThan(0);
    } finally {
      await sql.end({ timeout: 0 });
    }
  });
});
