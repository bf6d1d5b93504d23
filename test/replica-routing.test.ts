/**
 * Which standby a read goes to, and how a probe judges one, on databases that answer as a primary and its
 * standbys would (test/postgres/replicas.test.ts shows the same over HTTP on real replication).
 */
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database, Db } from '../src/db/client.js';
import { parseLsn, Replicas } from '../src/db/replicas.js';
import { writePositions } from '../src/db/schema/index.js';
import { addAuthor, openTestCatalogue } from './support/catalogue.js';

/** A database whose every query answers `answer()` (rows, or a failure). */
function answering(answer: () => unknown): Db {
  return {
    execute: async () => {
      const rows = answer();
      if (rows instanceof Error) throw rows;
      return rows;
    },
  } as unknown as Db;
}

/** A query that never comes back, as on a connection to a host cut off from the network. */
const never = () => new Promise(() => {});

function standby(answer: () => unknown): { name: string; database: Database } {
  const database = { db: answering(answer), close: async () => {} } as unknown as Database;
  return { name: 'standby', database };
}

const opened: Replicas<Database>[] = [];
afterEach(async () => {
  for (const replicas of opened.splice(0)) await replicas.close();
});

/** Standbys probed once, by hand: the timer's next round is an hour away. */
async function probed(primaryLsn: string, rows: (() => unknown)[], maxLagSeconds = 5): Promise<Replicas<Database>> {
  const replicas = new Replicas(
    answering(() => [{ lsn: primaryLsn }]),
    rows.map((row, i) => ({ ...standby(row), name: `replica ${i + 1}` })),
    { maxLagSeconds, probeIntervalMs: 3_600_000 },
  );
  opened.push(replicas);
  await replicas.probe();
  return replicas;
}

const caughtUp =
  (replayed: string, sinceReplay: number | null = 1) =>
  () => [{ standby: true, replayed, sinceReplay }];

describe('the probe', () => {
  it('a standby that replayed all the primary wrote is streaming, however old its last transaction', async () => {
    const replicas = await probed('0/3000100', [caughtUp('0/3000100', 86_400)]);
    expect(replicas.health()).toEqual([
      { role: 'replica', name: 'replica 1', state: 'streaming', lag_seconds: 0, lag_bytes: 0 },
    ]);
  });

  it('one behind by more than the lag allowed is lagging, with its lag in seconds and bytes', async () => {
    const replicas = await probed('0/3000100', [caughtUp('0/3000000', 60)]);
    expect(replicas.health()).toEqual([
      { role: 'replica', name: 'replica 1', state: 'lagging', lag_seconds: 60, lag_bytes: 256 },
    ]);
    expect(replicas.choose()).toBeUndefined();
  });

  it('one that does not answer is down; one not in recovery is not a standby; neither gets reads', async () => {
    const replicas = await probed('0/1', [
      () => Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
      () => [{ standby: false, replayed: null, sinceReplay: null }],
    ]);
    expect(replicas.health().map(({ state, lag_seconds }) => [state, lag_seconds])).toEqual([
      ['down', null],
      ['not-standby', null],
    ]);
    expect(replicas.anyStreaming()).toBe(false);
    expect(replicas.choose()).toBeUndefined();
  });

  it('one whose probe does not answer within its deadline is down, and holds no later round', async () => {
    const replicas = await probed('0/1', [never, caughtUp('0/1')]);
    expect(replicas.health().map(({ state }) => state)).toEqual(['down', 'streaming']);
  });
});

describe('choosing a standby', () => {
  it('anonymous reads take turns among the standbys streaming', async () => {
    const replicas = await probed('0/100', [caughtUp('0/100'), caughtUp('0/100'), caughtUp('0/50', 3600)]);
    const names = Array.from({ length: 4 }, () => replicas.choose()?.name);
    expect(names).toEqual(['replica 1', 'replica 2', 'replica 1', 'replica 2']);
  });

  it('a caller who wrote reads only from a standby that replayed their write, else from the primary', async () => {
    const replicas = await probed('1/0', [caughtUp('0/FFFFFF00'), caughtUp('1/0')]);
    expect(replicas.choose(parseLsn('0/FFFFFF00'))).toBeDefined();
    for (let i = 0; i < 3; i++) expect(replicas.choose(parseLsn('0/FFFFFF01'))?.name).toBe('replica 2');
    expect(replicas.choose(parseLsn('1/1'))).toBeUndefined();
  });

  it('a standby that fails a read is set aside when unreachable; the read is made again on the primary', async () => {
    const replicas = await probed('0/100', [caughtUp('0/100')]);
    const replica = replicas.choose();
    if (!replica) throw new Error('no standby chosen');
    expect(replicas.failed(replica, { code: '40001' })).toBe(true);
    expect(replica.state).toBe('streaming');
    expect(replicas.failed(replica, { code: '23505' })).toBe(false);
    expect(replicas.failed(replica, { cause: { code: 'ECONNRESET' } })).toBe(true);
    expect(replica.state).toBe('down');
    expect(replicas.choose()).toBeUndefined();
  });
});

it('without standbys, a signed-in caller\u2019s writes note no position: nothing runs that did not before', async () => {
  const t = await openTestCatalogue();
  try {
    const id = await addAuthor(t, 'Unreplicated Author');
    expect((await t.request(`/authors/${id}`)).status).toBe(200);
    const [noted] = await t.database.db.select({ n: count() }).from(writePositions);
    expect(noted?.n).toBe(0);
  } finally {
    await t.close();
  }
});

it('WAL positions compare as PostgreSQL compares them', () => {
  expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
  expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
});
