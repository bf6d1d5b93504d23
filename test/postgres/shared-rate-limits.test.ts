/**
 * Rate limits shared by two server processes on one PostgreSQL database: a token whose searches alternate
 * between them gets exactly its quota answered, counted down across both, and the rest refused with 429;
 * another caller's burst spread over both gets a quota of its own, exactly, each answer a count of its own,
 * however the requests interleave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import { expectError } from '../support/errors.js';
import { quotaLeft } from '../support/rate-limit.js';
import { call, created, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'shared-rate-limits-admin-token-0123456789';
const SEARCH_QUOTA = 30;
const SEARCHES = 40;

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
    const user = await created(await call(a, ADMIN_TOKEN, 'POST', '/users', { name, role: 'member' }), 'user');
    return (await created(await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}), 'token')).token;
  }

  const search = (server: RunningServer, token: string, i: number) =>
    call(server, token, 'GET', `/books?query=word${i}&page=1`);

  it(`a token alternating between them: ${SEARCH_QUOTA} searches answered, counted down across both, then 429`, async () => {
    const token = await member('Alternating Searcher');
    const answers: Response[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const response = await search(i % 2 === 0 ? a : b, token, i);
      answers.push(new Response(await response.text(), response));
    }
    expect(answers.map((response) => response.status)).toEqual([
      ...Array<number>(SEARCH_QUOTA).fill(200),
      ...Array<number>(SEARCHES - SEARCH_QUOTA).fill(429),
    ]);
    const remaining = answers.slice(0, SEARCH_QUOTA).map((r) => quotaLeft(r.headers.get('ratelimit')));
    expect(remaining).toEqual(Array.from({ length: SEARCH_QUOTA }, (_, i) => SEARCH_QUOTA - 1 - i));
    const refused = answers[SEARCH_QUOTA] as Response;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expectError(refused, 429, { message: `at most ${SEARCH_QUOTA} per 60 s` });
  });

  it('another caller has a quota of their own: a burst over both servers at once gets exactly the quota', async () => {
    const token = await member('Bursting Searcher');
    const responses = await Promise.all(
      Array.from({ length: SEARCHES }, (_, i) => search(i % 2 === 0 ? a : b, token, i)),
    );
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.text()));
    expect(statuses.filter((status) => status === 200)).toHaveLength(SEARCH_QUOTA);
    expect(statuses.filter((status) => status === 429)).toHaveLength(SEARCHES - SEARCH_QUOTA);
    // However the counts interleave on the row, no two answers were given the same one.
    const left = responses
      .filter((response) => response.status === 200)
      .map((response) => quotaLeft(response.headers.get('ratelimit')) as number);
    expect(left.sort((x, y) => x - y)).toEqual(Array.from({ length: SEARCH_QUOTA }, (_, i) => i));
  });
});
