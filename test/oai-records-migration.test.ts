/**
 * Migration 0015 (oai_records) on a database made with the migrations before it, on PGlite and (with
 * DATABASE_URL) PostgreSQL: books written, changed, renamed and deleted, some of their events already
 * pruned; then the database is brought up to date as a server does at start-up. Every book gets a record
 * stamped with its last change the feed still holds (its author's rename counting), a book whose events
 * are gone is stamped with the feed's horizon, a deletion still in the feed leaves a tombstone, and the
 * next write is stamped after all of them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../src/db/migrate.js';
import { type MigratedBefore, migratedBefore } from './support/migrated-before.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

describe('migrating a database made before OAI-PMH', () => {
  let old: MigratedBefore;
  const ids = { kept: 0, changed: 0, renamedAuthors: 0, pruned: 0, deleted: 0 };
  let stamps: { changed: string; renamed: string; deleted: string; horizon: string };

  const run = <T = Record<string, unknown>>(statement: ReturnType<typeof sql>) => old.run<T>(statement);
  const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

  beforeAll(async () => {
    old = await migratedBefore('0015_oai_records');
    expect(await run(sql`select to_regclass('oai_records') as records`)).toEqual([{ records: null }]);

    const [author, renamed] = await run<{ id: number }>(
      sql`insert into authors (name) values ('Kept Author'), ('Renamed Author') returning id`,
    );
    const books = await run<{ id: number }>(sql`insert into books (title, publication_year, author_id) values
      ('Kept', 2001, ${author?.id}), ('Changed', 2002, ${author?.id}), ('By the renamed', 2003, ${renamed?.id}),
      ('Pruned', 2004, ${author?.id}), ('Deleted', 2005, ${author?.id}) returning id`);
    [ids.kept, ids.changed, ids.renamedAuthors, ids.pruned, ids.deleted] = books.map((b) => b.id) as [
      number,
      number,
      number,
      number,
      number,
    ];
    await run(sql`update books set title = 'Changed again' where id = ${ids.changed}`);
    await run(sql`update authors set name = 'Renamed Author, anew' where id = ${renamed?.id}`);
    await run(sql`delete from books where id = ${ids.deleted}`);
    // Retention as pruning leaves it: the book's events gone, the horizon past them.
    await run(sql`delete from changes where resource_id = ${ids.pruned} and type like 'book.%'`);
    await run(sql`update changes_horizon set begins_at = now() - interval '1 day'`);

    const last = (type: string, id: number) =>
      run<{ at: string }>(
        sql`select ${iso('max(at)')} as at from changes where type = ${type} and resource_id = ${id}`,
      );
    stamps = {
      changed: ((await last('book.updated', ids.changed))[0] as { at: string }).at,
      renamed: ((await last('author.updated', renamed?.id as number))[0] as { at: string }).at,
      deleted: ((await last('book.deleted', ids.deleted))[0] as { at: string }).at,
      horizon: (
        (await run<{ at: string }>(sql`select ${iso('begins_at')} as at from changes_horizon`))[0] as {
          at: string;
        }
      ).at,
    };

    await prepareDatabase(old.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
  });

  afterAll(async () => {
    await old?.close();
  });

  const records = () =>
    run<{ book_id: number; datestamp: string; deleted: boolean }>(
      sql`select book_id, ${iso('datestamp')} as datestamp, deleted from oai_records order by book_id`,
    );

  it('stamps every book with its last change the feed holds, and keeps the deletion it holds', async () => {
    const created = (
      await run<{ at: string }>(
        sql`select ${iso('at')} as at from changes where type = 'book.created' and resource_id = ${ids.kept}`,
      )
    )[0] as { at: string };
    expect(await records()).toEqual([
      { book_id: ids.kept, datestamp: created.at, deleted: false },
      { book_id: ids.changed, datestamp: stamps.changed, deleted: false },
      { book_id: ids.renamedAuthors, datestamp: stamps.renamed, deleted: false },
      { book_id: ids.pruned, datestamp: stamps.horizon, deleted: false },
      { book_id: ids.deleted, datestamp: stamps.deleted, deleted: true },
    ]);
  });

  it('stamps the next write after every record there is', async () => {
    const before = await records();
    await run(sql`update books set title = 'Kept, changed at last' where id = ${ids.kept}`);
    const after = await records();
    const newest = before
      .map((r) => r.datestamp)
      .sort()
      .at(-1) as string;
    const kept = after.find((r) => r.book_id === ids.kept);
    expect((kept?.datestamp ?? '') > newest).toBe(true);
  });
});
