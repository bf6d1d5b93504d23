/**
 * The last-librarian rule under true concurrency, on PostgreSQL: two transactions on two connections each
 * demote the other of the only two librarians. The first holds its change open while the second tries;
 * the database makes the second wait and then refuses it, so a librarian remains. (Through HTTP the two
 * requests rarely overlap this exactly; here they always do.)
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedPostgresDatabase, type PostgresDatabase } from '../support/database.js';

let race: PostgresDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  race = await createMigratedPostgresDatabase(process.env.DATABASE_URL as string, 'race');
  sql = postgres(race.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await race?.drop();
});

describe('two librarians demoting each other in overlapping transactions', () => {
  it('the second waits for the first and is refused: one librarian remains', async () => {
    const [a, b] = await sql<{ id: number }[]>`
      insert into users (name, role) values ('Racing A', 'librarian'), ('Racing B', 'librarian') returning id`;
    await sql`update users set role = 'member' where id <> all(${[a?.id as number, b?.id as number]})`;
    let releaseFirst: () => void = () => {};
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstChanged: () => void = () => {};
    const changed = new Promise<void>((resolve) => {
      firstChanged = resolve;
    });
    const first = sql.begin(async (tx) => {
      await tx`update users set role = 'member' where id = ${b?.id as number}`;
      firstChanged();
      await firstHolds;
    });
    await changed;
    const second = sql
      .begin(async (tx) => {
        await tx`update users set role = 'member' where id = ${a?.id as number}`;
      })
      .then(
        () => 'committed',
        (error: { constraint_name?: string }) => error.constraint_name,
      );
    // Give the second transaction time to reach the rule and wait on the first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    releaseFirst();
    await first;
    expect(await second).toBe('users_keep_a_librarian');
    const librarians = await sql`select id from users where role = 'librarian'`;
    expect(librarians.map((row) => row.id)).toEqual([a?.id]);
  });
});
