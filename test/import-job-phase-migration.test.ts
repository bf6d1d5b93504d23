/**
 * Migration 0047 (the phase of an import's run) on a database made before it, on PGlite and (with
 * DATABASE_URL) PostgreSQL: jobs written as the schema before it held them read as finished when done and
 * as writing their records otherwise, a stopped load's set-aside indexes counted as none built of them; and
 * the database refuses a job done in any other phase, or more indexes built than set aside.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../src/db/migrate.js';
import { findImportJob } from '../src/db/queries/import-jobs.js';
import { type MigratedBefore, migratedBefore } from './support/migrated-before.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

const SHA = (n: number) => String(n).repeat(64);

describe('migrating import jobs made before their phase', () => {
  let old: MigratedBefore;
  const ids: Record<'done' | 'failed' | 'stopped', number> = { done: 0, failed: 0, stopped: 0 };

  beforeAll(async () => {
    old = await migratedBefore('0047_import_job_phase');
    const insert = async (n: number, columns: ReturnType<typeof sql>) => {
      const [row] = await old.run<{ id: number }>(sql`
        insert into import_jobs (file_sha256, media_type, state, total, processed, imported, error, finished_at,
          set_aside_indexes)
        values (${SHA(n)}, 'application/marc', ${columns}) returning id`);
      return Number(row?.id);
    };
    ids.done = await insert(1, sql`'done', 3, 3, 3, null, now(), null`);
    ids.failed = await insert(2, sql`'failed', 9, 2, 2, 'broken', now(), null`);
    ids.stopped = await insert(
      3,
      sql`'running', 9, 4, 4, null, null, ${JSON.stringify([
        { name: 'a_idx', definition: 'create index a_idx on books (title)' },
        { name: 'b_idx', definition: 'create index b_idx on books (publication_year)' },
      ])}::jsonb`,
    );
    await prepareDatabase(old.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
  });
  afterAll(async () => {
    await old?.close();
  });

  it('reads the old jobs in the phase each had reached', async () => {
    const job = (id: number) => findImportJob(old.database.db, id);
    expect(await job(ids.done)).toMatchObject({ state: 'done', phase: 'finished', indexes_built: 0, indexes_total: 0 });
    expect(await job(ids.failed)).toMatchObject({ state: 'failed', phase: 'writing_records', indexes_total: 0 });
    expect(await job(ids.stopped)).toMatchObject({
      state: 'running',
      phase: 'writing_records',
      indexes_built: 0,
      indexes_total: 2,
    });
  });

  it('refuses a job done in another phase than finished, or more indexes built than set aside', async () => {
    const refused = (statement: ReturnType<typeof sql>) =>
      old.database.db.execute(statement).then(
        () => 'accepted',
        (error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code,
      );
    expect(
      await refused(sql`update import_jobs set state = 'done', finished_at = now() where id = ${ids.stopped}`),
    ).toBe('23514');
    expect(await refused(sql`update import_jobs set phase = 'finished' where id = ${ids.stopped}`)).toBe('23514');
    expect(await refused(sql`update import_jobs set indexes_built = 3 where id = ${ids.stopped}`)).toBe('23514');
    expect(await refused(sql`update import_jobs set phase = 'reading' where id = ${ids.stopped}`)).toBe('23514');
    expect(
      await refused(
        sql`update import_jobs set phase = 'building_indexes', indexes_built = 2 where id = ${ids.stopped}`,
      ),
    ).toBe('accepted');
  });
});
