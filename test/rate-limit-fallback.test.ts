/**
 * The shared count of rate limits is a guard, never a reason to refuse: when the database cannot count (here
 * a PostgreSQL address where nothing listens), requests are counted in the process instead, still announced
 * and still refused past the quota, and the failure is logged once, by its code, rather than per request.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import type { AppEnv } from '../src/http/env.js';
import { RateLimiter } from '../src/http/rate-limit.js';
import { SharedQuotaCounter } from '../src/http/shared-quota-counter.js';
import type { Logger } from '../src/log.js';

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
    expect(answers.slice(0, QUOTA).map((a) => /r=(\d+)/.exec(a.rateLimit ?? '')?.[1])).toEqual(['2', '1', '0']);
    // By its code alone: the failed query's text and parameters (the caller) stay out of the log.
    expect(errors).toEqual([
      {
        message: expect.stringMatching(/counting rate limits in the database failed/),
        fields: { code: 'ECONNREFUSED' },
      },
    ]);
  });
});
