/**
 * A book keeps its author's name (the `author` link's title) in its own row, written by triggers: when the
 * book is written and when the author is renamed. On PostgreSQL, with the two in overlapping transactions
 * on two connections, the one that comes second waits for the first, so no book is left with a name its
 * author no longer has. (Through HTTP the two rarely overlap this exactly; here they always do.)
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedPostgresDatabase, type PostgresDatabase } from '../support/database.js';

let race: PostgresDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  race = await createMigratedPostgresDatabase(process.env.DATABASE_URL as string, 'author_name');
  sql = postgres(race.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await race?.drop();
});

async function newAuthor(name: string): Promise<number> {
  const [author] = await sql<{ id: number }[]>`insert into authors (name) values (${name}) returning id`;
  return author?.id as number;
}

async function namesOnBooksOf(author: number): Promise<string[]> {
  const rows = await sql<{ author_name: string }[]>`select author_name from books where author_id = ${author}`;
  return rows.map((row) => row.author_name);
}

/** Runs `first` in a transaction held open until `second` has started (and had time to block), then commits. */
async function overlapping(first: (tx: postgres.TransactionSql) => Promise<unknown>, second: () => Promise<unknown>) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let wrote: () => void = () => {};
  const written = new Promise<void>((resolve) => {
    wrote = resolve;
  });
  const firstDone = sql.begin(async (tx) => {
    await first(tx);
    wrote();
    await held;
  });
  await written;
  const secondDone = second();
  // Long enough for the second to reach the row the first holds.
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await Promise.all([firstDone, secondDone]);
}

describe('a book written while its author is renamed', () => {
  it('a book added in a transaction still open when the rename comes shows the new name', async () => {
    const author = await newAuthor('Before Rename');
    await overlapping(
      (tx) => tx`insert into books (title, publication_year, author_id) values ('Held Open', 2001, ${author})`,
      () => sql`update authors set name = 'After Rename' where id = ${author}`,
    );
    expect(await namesOnBooksOf(author)).toEqual(['After Rename']);
  });

  it('a book moved to an author whose rename is still open shows the new name', async () => {
    const author = await newAuthor('Moved To, Before');
    const other = await newAuthor('Moved From');
    const [book] = await sql<{ id: number }[]>`
      insert into books (title, publication_year, author_id) values ('Moving', 2001, ${other}) returning id`;
    await overlapping(
      (tx) => tx`update authors set name = 'Moved To, After' where id = ${author}`,
      () => sql`update books set author_id = ${author} where id = ${book?.id as number}`,
    );
    expect(await namesOnBooksOf(author)).toEqual(['Moved To, After']);
  });
});
