/**
 * Hot reads on PGlite send raw protocol messages and read the answer themselves (src/db/wire.ts): the
 * values must be what PGlite's own reading gives, errors must carry their SQLSTATE, and a read must wait
 * for a transaction that is open, never see inside it.
 */
import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPglite } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { rawAnswer } from '../src/db/pglite-statement.js';
import { findBook } from '../src/db/queries/books.js';
import { answeredRows, PostgresError, simpleQuery } from '../src/db/wire.js';

let database: Database;
let pg: PGlite;

beforeAll(async () => {
  const snapshot = inject('pgliteSnapshot');
  const dump = snapshot ? new Blob([await readFile(snapshot)]) : undefined;
  database = await openPglite({ kind: 'pglite', dataDir: 'memory://' }, dump);
  // This file is about PGlite whichever database the suite runs on; on PostgreSQL there is no snapshot.
  if (!snapshot) await prepareDatabase(database, { seedSample: false });
  pg = (database.db as unknown as { $client: PGlite }).$client;
});

afterAll(() => database.close());

const raw = async (sql: string) => answeredRows(await pg.execProtocolRaw(simpleQuery(sql), { syncToFs: false }));

describe('reading an answer off the wire', () => {
  it("gives the values PGlite's own reading gives, nulls and text outside ASCII included", async () => {
    const sql = `select 1::int2 as a, (-2147483648)::int4 as b, true as c, false as d, 'é “quoted” \\ ☃'::text as e,
      'x'::varchar as f, null::int4 as g, null::text as h, '{"k":[1,null,"v"]}'::json as i, '[2]'::jsonb as j,
      '' as k from generate_series(1, 3)`;
    const [own] = await pg.exec(sql, { rowMode: 'array' });
    expect(await raw(sql)).toEqual(own?.rows);
    expect(await raw(sql)).toHaveLength(3);
  });

  it('gives no rows for an answer without any, and for a command', async () => {
    expect(await raw('select 1 where false')).toEqual([]);
    expect(await raw('set statement_timeout = 0')).toEqual([]);
  });

  it('throws the error the database answered, with its SQLSTATE, and the session goes on', async () => {
    const error = await raw('select 1 / 0').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresError);
    expect(error).toMatchObject({ code: '22012', severity: 'ERROR', message: 'division by zero' });
    expect(await raw('select 2::int4')).toEqual([[2]]);
  });

  it('refuses a column type it does not read rather than guess', async () => {
    await expect(raw('select 1::int8')).rejects.toThrow(/type 20/);
  });
});

describe('taking an answer off PGlite unread', () => {
  it('gives the bytes PGlite answers, however many pieces they come in', async () => {
    for (const sql of [
      'select 1::int4',
      "select repeat('é', 300000)::text",
      'select n::int4 from generate_series(1, 50000) n',
    ]) {
      const whole = await pg.execProtocolRaw(simpleQuery(sql), { syncToFs: false });
      const taken = await rawAnswer(pg, simpleQuery(sql));
      expect(Buffer.from(taken).equals(Buffer.from(whole))).toBe(true);
    }
    expect(await raw("select length(repeat('é', 300000))::int4")).toEqual([[300000]]);
  });
});

describe('a hot read of a book on PGlite', () => {
  it('waits for an open transaction and never sees inside it', async () => {
    const [author] = (await pg.query<{ id: number }>(`insert into authors (name) values ('Ann') returning id`)).rows;
    const [book] = (
      await pg.query<{ id: number }>(
        `insert into books (title, publication_year, author_id) values ('Kept', 2001, $1) returning id`,
        [author?.id],
      )
    ).rows;
    const id = book?.id as number;
    expect((await findBook(database.db, { id }))?.title).toBe('Kept');

    let changed!: () => void;
    const inside = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const transaction = pg
      .transaction(async (tx) => {
        await tx.query(`update books set title = 'Never committed' where id = $1`, [id]);
        changed();
        await new Promise((resolve) => setTimeout(resolve, 200));
        throw new Error('rolled back');
      })
      .catch(() => 'rolled back');
    await inside;
    const read = await findBook(database.db, { id });
    expect(await transaction).toBe('rolled back');
    expect(read?.title).toBe('Kept');
  });
});
