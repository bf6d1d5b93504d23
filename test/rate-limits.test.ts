/**
 * Per-caller limits on expensive work, announced with the IETF RateLimit fields and refused with 429 +
 * Retry-After in the error shape once spent; a refused request changes nothing, and one caller's spending
 * leaves another's alone. Small quotas here so that the limits are reached quickly. Each behaviour holds
 * whether the quotas are counted in the database (PostgreSQL's default, shared by every process) or in the
 * process (PGlite's); on either database, both are exercised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { insertToken } from '../src/db/queries/tokens.js';
import { insertUser } from '../src/db/queries/users.js';
import { hashTokenSecret, newTokenSecret } from '../src/domain/token.js';
import { ProcessQuotaCounter, type QuotaCounter } from '../src/http/quota-counter.js';
import { SharedQuotaCounter } from '../src/http/shared-quota-counter.js';
import type { Logger } from '../src/log.js';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { PageDoc, TokenDocument } from './support/documents.js';
import { expectError } from './support/errors.js';
import { quotaLeft } from './support/rate-limit.js';

const QUOTA = 3;
const rateLimits = {
  search: { limit: QUOTA, windowSeconds: 60 },
  stream: { limit: QUOTA, windowSeconds: 60 },
  write: { limit: QUOTA, windowSeconds: 60 },
};

describe.each(['database', 'process'] as const)('counted in the %s', (counting) => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ rateLimits, rateLimitCounting: counting });
  });
  afterAll(() => t.close());

  /** A member with a token, made in the database so that setting up spends nobody's quota. */
  async function addUserDirectly(name: string) {
    const user = await insertUser(t.database.db, { name, role: 'member' });
    const token = newTokenSecret();
    await insertToken(t.database.db, { userId: user.id, name: 'test', hash: hashTokenSecret(token) });
    return { id: user.id, token };
  }

  describe('the write limit', () => {
    it('announces the policy and what is left, then refuses with 429 and Retry-After, creating nothing', async () => {
      const writer = await addUserDirectly('Busy Writer');
      const as = t.as(writer.token);
      const remaining: string[] = [];
      for (let i = 0; i < QUOTA; i++) {
        const response = await as.send('POST', `/users/${writer.id}/tokens`, { name: `laptop ${i}` });
        expect(response.status).toBe(201);
        expect(response.headers.get('ratelimit-policy')).toBe(`"write";q=${QUOTA};w=60`);
        remaining.push(response.headers.get('ratelimit') as string);
      }
      expect(remaining.map(quotaLeft)).toEqual([2, 1, 0]);

      const refused = await as.send('POST', `/users/${writer.id}/tokens`, { name: 'one too many' });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get('ratelimit')).toMatch(/^"write";r=0;t=\d+$/);
      await expectError(refused, 429, { message: /at most 3 per 60 s/, details: [] });
      const tokens = await json<PageDoc<TokenDocument>>(await t.request(`/users/${writer.id}/tokens`));
      expect(tokens.data.map((token: { name: string }) => token.name)).not.toContain('one too many');
    });

    it('another caller has a quota of their own; reading a document spends nothing', async () => {
      const other = await addUserDirectly('Other Writer');
      const response = await t.as(other.token).send('POST', `/users/${other.id}/tokens`, { name: 'phone' });
      expect(response.status).toBe(201);
      expect(response.headers.get('ratelimit')).toMatch(/^"write";r=2;t=\d+$/);
      const read = await t.as(other.token).request(`/users/${other.id}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('ratelimit')).toBeNull();
    });
  });

  describe('the search and stream limits', () => {
    it('searches spend from their own quota, announced and then refused with 429', async () => {
      const reader = await addUserDirectly('Busy Searcher');
      const as = t.as(reader.token);
      for (let i = 0; i < QUOTA; i++) {
        const response = await as.request(`/books?query=word${i}&page=1`);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit-policy')).toBe(`"search";q=${QUOTA};w=60`);
      }
      const refused = await as.request('/books?query=again&page=1');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      await expectError(refused, 429);
      // Paging through a plain listing is not a search and stays free.
      const page = await as.request('/books?page=1');
      expect(page.status).toBe(200);
      expect(page.headers.get('ratelimit')).toBeNull();
    });

    it('two callers’ bursts at once: each gets exactly its quota, every answer its own count of what is left', async () => {
      const callers = [await addUserDirectly('Bursting Searcher'), await addUserDirectly('Other Bursting Searcher')];
      const burst = QUOTA + 2;
      // Sent together, the two callers' requests interleaved: each caller is counted apart, every request once.
      const responses = await Promise.all(
        Array.from({ length: burst * 2 }, (_, i) =>
          t.as((callers[i % 2] as { token: string }).token).request(`/books?query=burst${i}&page=1`),
        ),
      );
      for (let c = 0; c < callers.length; c++) {
        const own = responses.filter((_, i) => i % 2 === c);
        const answered = own.filter((response) => response.status === 200);
        expect(answered).toHaveLength(QUOTA);
        expect(own.filter((response) => response.status === 429)).toHaveLength(burst - QUOTA);
        const left = answered.map((response) => quotaLeft(response.headers.get('ratelimit')) as number);
        expect(left.sort((x, y) => x - y)).toEqual(Array.from({ length: QUOTA }, (_, i) => i));
      }
      await Promise.all(responses.map((response) => response.text()));
    });

    it('anonymous callers are counted by address, and whole-collection streams have their own quota', async () => {
      for (let i = 0; i < QUOTA; i++) {
        const response = await t.anonymous.request('/authors');
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"stream";r=${QUOTA - 1 - i};t=\\d+$`));
        await response.text();
      }
      expect((await t.anonymous.request('/authors')).status).toBe(429);
      // A page of the same collection is cheap and allowed.
      expect((await t.anonymous.request('/authors?page=1')).status).toBe(200);
    });
  });

  describe('a second app on the same database', () => {
    const shared = counting === 'database';
    it(shared ? 'spends from the same quota as the first' : 'counts on its own', async () => {
      const second = createApp({ database: t.database, rateLimits, rateLimitCounting: counting });
      const reader = await addUserDirectly('Searcher On Two Apps');
      const init = { headers: { Authorization: `Bearer ${reader.token}` } };
      const statuses: number[] = [];
      for (let i = 0; i <= QUOTA; i++) {
        const response = await (i % 2 === 0 ? t.app : second).request(`/books?query=word${i}&page=1`, init);
        statuses.push(response.status);
      }
      expect(statuses).toEqual(shared ? [200, 200, 200, 429] : [200, 200, 200, 200]);
    });
  });

  describe('a window that has ended', () => {
    it('starts anew: a burst at once is counted from one again, each request given its own place', async () => {
      const policy = { limit: 10, windowSeconds: 1 };
      const silent: Logger = { info: () => {}, error: () => {} };
      const counter: QuotaCounter =
        counting === 'database' ? new SharedQuotaCounter(t.database.db, silent) : new ProcessQuotaCounter();
      const burst = async () => {
        const spent = await Promise.all(
          Array.from({ length: 4 }, () => counter.count('address:turning', 'search', policy)),
        );
        // Counted at once on several connections, in whatever order the database took them.
        return spent.map(({ used }) => used).sort((a, b) => a - b);
      };
      expect(await burst()).toEqual([1, 2, 3, 4]);
      expect(await burst()).toEqual([5, 6, 7, 8]);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await burst()).toEqual([1, 2, 3, 4]);
    });
  });
});
