/**
 * Migration 0028 (transit) on a database made with the schema before it, on PGlite and (with DATABASE_URL)
 * PostgreSQL: a waiting hold is collected at its borrower's home branch, every copy is where it belongs and
 * travels nowhere, and the API reads them so.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { ChangeStreams, changeStreamOptions } from '../src/http/change-streams.js';
import { json } from './support/catalogue.js';
import type { CopyDocument, HoldDocument } from './support/documents.js';
import { type MigratedBefore, migratedBefore } from './support/migrated-before.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

describe('migrating a database made before transit', () => {
  let migrated: MigratedBefore;
  let changeStreams: ChangeStreams;
  let app: ReturnType<typeof createApp>;
  const old = { east: 0, main: 0, holdId: 0, copies: [] as { id: number; branch_id: number }[] };

  const run = <T = Record<string, unknown>>(statement: ReturnType<typeof sql>) => migrated.run<T>(statement);
  const read = async <T>(path: string) => {
    const response = await app.request(path, { headers: { Authorization: `Bearer ${LIBRARIAN_TOKEN}` } });
    expect(response.status, path).toBe(200);
    return json<T>(response);
  };

  beforeAll(async () => {
    migrated = await migratedBefore('0028_transit');
    const [main] = await run<{ id: number }>(sql`select id from branches where is_default`);
    const [east] = await run<{ id: number }>(
      sql`insert into branches (code, name) values ('east', 'East') returning id`,
    );
    old.main = main?.id as number;
    old.east = east?.id as number;
    const [author] = await run<{ id: number }>(sql`insert into authors (name) values ('Old Author') returning id`);
    const [book] = await run<{ id: number }>(
      sql`insert into books (title, publication_year, author_id) values ('Old Book', 1999, ${author?.id}) returning id`,
    );
    // The book's first copy came with it, at the default branch; a second is at home at East.
    await run(sql`insert into copies (book_id, branch_id) values (${book?.id}, ${old.east})`);
    old.copies = await run<{ id: number; branch_id: number }>(
      sql`select id, branch_id from copies where book_id = ${book?.id} order by id`,
    );
    const [member] = await run<{ id: number }>(
      sql`insert into users (name, role, home_branch_id) values ('Old Member', 'member', ${old.east}) returning id`,
    );
    const [hold] = await run<{ id: number }>(
      sql`insert into holds (book_id, borrower_id) values (${book?.id}, ${member?.id}) returning id`,
    );
    old.holdId = hold?.id as number;

    await prepareDatabase(migrated.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
    changeStreams = new ChangeStreams(migrated.database, changeStreamOptions(defaultConfig.changes));
    app = createApp({ changeStreams, database: migrated.database, rateLimits: false });
  });

  afterAll(async () => {
    changeStreams?.close();
    await migrated?.close();
  });

  it('an existing hold is collected at its borrower\u2019s home branch', async () => {
    expect(await run(sql`select pickup_branch_id from holds where id = ${old.holdId}`)).toEqual([
      { pickup_branch_id: old.east },
    ]);
    const hold = await read<HoldDocument>(`/holds/${old.holdId}`);
    expect(hold).toMatchObject({ status: 'waiting', pickup_branch_id: old.east });
  });

  it('every existing copy is at its home branch, in transit nowhere', async () => {
    expect(old.copies.map((c) => c.branch_id)).toEqual([old.main, old.east]);
    for (const { id, branch_id } of old.copies) {
      const copy = await read<CopyDocument>(`/copies/${id}`);
      expect(copy).toMatchObject({ branch_id, location_branch_id: branch_id, transit_to_branch_id: null });
      expect(copy.status).not.toBe('in_transit');
    }
  });

  it('the schema refuses a copy in transit to where it is, and an in-transit hold without a copy', async () => {
    const [copy] = old.copies;
    await expect(
      run(sql`update copies set transit_to_branch_id = location_branch_id where id = ${copy?.id}`),
    ).rejects.toThrow();
    await expect(run(sql`update holds set status = 'in_transit' where id = ${old.holdId}`)).rejects.toThrow();
  });
});
