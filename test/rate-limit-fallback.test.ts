/**
 * The shared count of rate limits is a guard, never a reason to refuse: when the database cannot count (here
 * a PostgreSQL address where nothing listens), requests are counted in the process instead, still announced
 * and still refused past the quota, and the failure is logged once, by its code, rather than per request.
 */
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import type { AppEnv } from '../src/http/env.js';
import { RateLimiter } from '../src/http/rate-limit.js';
import { SharedQuotaCounter } from '../src/http/shared-quota-counter.js';
import type { Logger } from '../src/log.js';
import { quotaLeft } from './support/rate-limit.js';

const QUOTA = 3;
let unreachable: Database;

beforeAll(async () => {
  // Port 1 on the loopback: the connection is refused at once, as when the database server is down.
  unreachable = await openDatabase({ kind: 'postgres', url: 'postgres://catalogue@127.0.0.1:1/catalogue' });
});
afterAll(() => unreachable.close());

describe('counting in a database that does not answer', () => {
  it('counts in the process: the quota is announced, then refused with 429, and logged once', async () => {
    const errors: { message: string; fields?: Record<string, unknown> }[] = [];
    const log: Logger = { info: () => {}, error: (message, fields) => errors.push({ message, fields }) };
    const policy = { limit: QUOTA, windowSeconds: 60 };
    const limiter = new RateLimiter(
      { search: policy, stream: policy, write: policy },
      new SharedQuotaCounter(unreachable.db, log),
    );
    const app = new Hono<AppEnv>();
    app.get('/search', async (c) => {
      await limiter.spend(c, 'search');
      return c.text('found');
    });
    app.onError((error, c) => c.text(error.message, (error as { status?: 429 }).status ?? 500));

    const answers: { status: number; rateLimit: string | null }[] = [];
    for (let i = 0; i <= QUOTA; i++) {
      const response = await app.request('/search');
      answers.push({ status: response.status, rateLimit: response.headers.get('ratelimit') });
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.slice(0, QUOTA).map((a) => quotaLeft(a.rateLimit))).toEqual([2, 1, 0]);
    // By its code alone: the failed query's text and parameters (the caller) stay out of the log.
    expect(errors).toEqual([
      {
        message: expect.stringMatching(/counting rate limits in the database failed/),
        fields: { code: 'ECONNREFUSED' },
      },
    ]);
  });
});

describe('counting in a database that stalls', () => {
  it('after a failure, one request at a time asks the database again; the others are counted at once', async () => {
    // A server that accepts connections and never answers: each count waits for the connect timeout.
    const sockets = new Set<Socket>();
    const stalled = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const { port } = stalled.address() as AddressInfo;
    const database = await openDatabase({ kind: 'postgres', url: `postgres://catalogue@127.0.0.1:${port}/catalogue` });
    try {
      let clock = 0;
      const log: Logger = { info: () => {}, error: () => {} };
      const counter = new SharedQuotaCounter(database.db, log, () => clock);
      const policy = { limit: 100, windowSeconds: 60 };
      await counter.count('address:a', 'search', policy); // fails after the connect timeout
      clock += 60_000; // long past the retry time
      const settled: boolean[] = [];
      const counts = Array.from({ length: 5 }, (_, i) =>
        counter.count(`address:${i}`, 'search', policy).then(() => {
          settled[i] = true;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(settled.filter(Boolean)).toHaveLength(4);
      expect(settled[0]).toBeUndefined();
      await Promise.all(counts);
    } finally {
      for (const socket of sockets) socket.destroy();
      await database.close();
      stalled.close();
    }
  });
});
