/**
 * Rate limits shared by two server processes on one PostgreSQL database, within the documented tolerance
 * (docs/operations.md, "Rate limits": with N processes, up to N sixteenths of a quota more): a token
 * whose searches alternate between them gets its quota answered, counted down on each, and the rest
 * refused with 429; another caller's burst spread over both gets a quota of its own. Counted apart, the
 * two servers would answer twice the quota.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import type { NewTokenDocument, UserDocument } from '../support/documents.js';
import { expectError } from '../support/errors.js';
import { quotaLeft } from '../support/rate-limit.js';
import { call, created, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'shared-rate-limits-admin-token-0123456789';
const SEARCH_QUOTA = 30;
const SEARCHES = 40;
/** What two processes may answer beyond a quota: a sixteenth of it, rounded down, each. */
const TOLERANCE = 2 * Math.floor(SEARCH_QUOTA / 16);

describe('rate limits shared by two server processes on one database', () => {
  let shared: PostgresDatabase;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    shared = await createPostgresDatabase(process.env.DATABASE_URL as string, 'shared_limits');
    const options = {
      database: { env: { DATABASE_URL: shared.url } },
      env: {
        CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
        CATALOGUE_SEED: 'none',
        CATALOGUE_RATE_LIMITS: `search=${SEARCH_QUOTA}`,
      },
    };
    [a, b] = await Promise.all([startServer(options), startServer(options)]);
  });

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await shared?.drop();
  });

  /** A member and their token, made through the API. */
  async function member(name: string): Promise<string> {
    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name, role: 'member' }),
      'user',
    );
    return (
      await created<NewTokenDocument>(await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}), 'token')
    ).token;
  }

  const search = (server: RunningServer, token: string, i: number) =>
    call(server, token, 'GET', `/books?query=word${i}&page=1`);

  it(`a token alternating between them: ${SEARCH_QUOTA} searches answered, counted down on each, then 429`, async () => {
    const token = await member('Alternating Searcher');
    const answers: Response[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const response = await search(i % 2 === 0 ? a : b, token, i);
      answers.push(new Response(await response.text(), response));
    }
    const statuses = answers.map((response) => response.status);
    const answered = statuses.indexOf(429);
    expect(answered).toBeGreaterThanOrEqual(SEARCH_QUOTA);
    expect(answered).toBeLessThanOrEqual(SEARCH_QUOTA + TOLERANCE);
    expect(statuses).toEqual([...Array<number>(answered).fill(200), ...Array<number>(SEARCHES - answered).fill(429)]);
    // What each answer says is left: never less than is left (no caller is refused early), never more
    // than the tolerance beyond it, and on each server only going down.
    const remaining = answers.slice(0, answered).map((r) => quotaLeft(r.headers.get('ratelimit')) as number);
    remaining.forEach((left, i) => {
      expect(left).toBeGreaterThanOrEqual(Math.max(0, SEARCH_QUOTA - 1 - i));
      expect(left).toBeLessThanOrEqual(SEARCH_QUOTA - 1 - i + TOLERANCE + 1);
    });
    for (const server of [0, 1]) {
      const own = remaining.filter((_, i) => i % 2 === server);
      expect(own).toEqual([...own].sort((x, y) => y - x));
      expect(new Set(own).size).toBe(own.length);
    }
    const refused = answers[answered] as Response;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expectError(refused, 429, { message: `at most ${SEARCH_QUOTA} per 60 s` });
  });

  it('another caller has a quota of their own: a burst over both servers at once gets the quota', async () => {
    const token = await member('Bursting Searcher');
    const responses = await Promise.all(
      Array.from({ length: SEARCHES }, (_, i) => search(i % 2 === 0 ? a : b, token, i)),
    );
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.text()));
    const answered = statuses.filter((status) => status === 200).length;
    expect(answered).toBeGreaterThanOrEqual(SEARCH_QUOTA);
    expect(answered).toBeLessThanOrEqual(SEARCH_QUOTA + TOLERANCE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(SEARCHES - answered);
    for (const response of responses) {
      const left = quotaLeft(response.headers.get('ratelimit')) as number;
      expect(left).toBeLessThan(SEARCH_QUOTA);
      if (response.status === 429) expect(left).toBe(0);
    }
  });
});
