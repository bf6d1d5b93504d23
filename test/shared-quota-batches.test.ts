/**
 * The shared quota count in batches (docs/operations.md, "Rate limits"): a busy caller's requests reach the
 * database in a few upserts rather than one each, all of them within a second; near the end of a quota every
 * request is added before it is answered. One process here, on a clock the test moves.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { SharedQuotaCounter } from '../src/http/shared-quota-counter.js';
import type { Logger } from '../src/log.js';
import { openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const silent: Logger = { info: () => {}, error: () => {} };
let t: TestCatalogue;

beforeAll(async () => {
  t = await openTestCatalogue({ rateLimitCounting: 'database' });
});
afterAll(() => t.close());

/** What the database has counted for a caller's searches. */
async function countedInDatabase(caller: string): Promise<number> {
  const [row] = rowsOf<{ used: number }>(
    await t.database.db.execute(sql`select used from rate_windows where caller = ${caller} and kind = 'search'`),
  );
  return Number(row?.used ?? 0);
}

describe('the shared quota count', () => {
  it('adds a busy caller’s requests in batches, each answered its own count, and all of them within a second', async () => {
    let clock = 1_000_000;
    const counter = new SharedQuotaCounter(t.database.db, silent, () => clock);
    const policy = { limit: 1600, windowSeconds: 60 };
    const used: number[] = [];
    for (let i = 0; i < 40; i++) used.push((await counter.count('address:busy', 'search', policy)).used);
    expect(used).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // A hundred may be answered between two upserts (a sixteenth of what was left): the first was added
    // alone, the rest wait for the next upsert.
    expect(await countedInDatabase('address:busy')).toBe(1);
    clock += 1000;
    expect((await counter.count('address:busy', 'search', policy)).used).toBe(41);
    expect(await countedInDatabase('address:busy')).toBe(41);
  });

  it('adds every request before answering it once fewer than sixteen are left', async () => {
    const counter = new SharedQuotaCounter(t.database.db, silent, () => 2_000_000);
    const policy = { limit: 20, windowSeconds: 60 };
    const inDatabase: number[] = [];
    for (let i = 0; i < 22; i++) {
      await counter.count('address:nearly-spent', 'search', policy);
      inDatabase.push(await countedInDatabase('address:nearly-spent'));
    }
    // 20 left at first: one request may be answered alone after the first upsert; from 16 left, none.
    expect(inDatabase.slice(5)).toEqual(Array.from({ length: 17 }, (_, i) => i + 6));
    expect(inDatabase[21]).toBe(22);
  });
});
