/**
 * Hot reads on PGlite run a PREPAREd statement through `exec` (src/db/pglite-statement.ts): they must answer
 * what drizzle's select answers, refuse what is not a whole number, and wait for a transaction that is
 * open, never see inside it.
 */
import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPglite } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { pgliteStatement } from '../src/db/pglite-statement.js';
import { findBook, findBooksQuery } from '../src/db/queries/books.js';
import { authors, books } from '../src/db/schema/index.js';

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

async function addBook(title: string): Promise<number> {
  const [author] = (await pg.query<{ id: number }>(`insert into authors (name) values ('Ann') returning id`)).rows;
  const [book] = (
    await pg.query<{ id: number }>(
      `insert into books (title, publication_year, author_id, subjects) values ($1, 2001, $2, '{"Fées", "a \\"b\\""}') returning id`,
      [title, author?.id],
    )
  ).rows;
  return book?.id as number;
}

describe('a statement prepared on PGlite', () => {
  /** The select of books by id, prepared on PGlite, its rows keyed as drizzle keys them. */
  let made: ReturnType<typeof pgliteStatement<Record<string, unknown>>>;
  const statement = () => {
    made ??= pgliteStatement<Record<string, unknown>>(database.db, 'test_find_books', {
      build: findBooksQuery,
      columns: ['id', 'title', 'publication_year', 'author_id', 'version', 'available', 'due_at'].concat([
        'copies_total',
        'copies_available',
        'isbn',
        'language',
        'subjects',
        'publisher',
        'author_name',
        'hasLoans',
      ]),
      argumentTypes: ['integer[]'],
    });
    return made;
  };

  it("answers the rows drizzle's select answers, keyed and typed alike", async () => {
    const ids = [await addBook('é “quoted” \\ ☃'), await addBook('Plain')];
    const ours = await statement()?.([ids]);
    const drizzles = await findBooksQuery(database.db).execute({ ids });
    expect(ours).toEqual(drizzles);
    expect(ours?.map((row) => Object.keys(row))).toEqual(drizzles.map((row) => Object.keys(row)));
    expect(await statement()?.([[2_000_000_000]])).toEqual([]);
  });

  it('refuses arguments that are not whole numbers, before they reach the database', async () => {
    await expect(statement()?.([[1.5]]) as Promise<unknown>).rejects.toThrow(/whole numbers only/);
    await expect(statement()?.([[Number.NaN]]) as Promise<unknown>).rejects.toThrow(/whole numbers only/);
  });

  it('is not made for a transaction, whose reads must run inside it', async () => {
    await database.db
      .transaction(async (tx) => {
        expect(
          pgliteStatement(tx, 'test_in_tx', { build: findBooksQuery, columns: ['id'], argumentTypes: ['integer[]'] }),
        ).toBeUndefined();
        const [author] = await tx.insert(authors).values({ name: 'Ann' }).returning({ id: authors.id });
        const [book] = await tx
          .insert(books)
          .values({ title: 'Inside', publicationYear: 2001, authorId: author?.id as number })
          .returning({ id: books.id });
        const id = book?.id as number;
        expect((await findBook(tx, { id }))?.title).toBe('Inside');
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message.includes('Rollback'))) throw error;
      });
  });
});

describe('a hot read of a book on PGlite', () => {
  it('waits for an open transaction and never sees inside it', async () => {
    const id = await addBook('Kept');
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
