/**
 * A book's hold queue as its members are told it, on PGlite and (with DATABASE_URL) PostgreSQL, where the
 * holds below are placed at once over the pool: each answer tells a distinct place, the one the database
 * queued the hold at, and the queue lists in that order on every page, sorted by `position` either way.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/seed.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const MEMBERS = 20;

interface Told {
  id: number;
  position: number;
}

describe('a hold queue placed all at once', () => {
  let t: TestCatalogue;
  let bookId: number;
  const told: Told[] = [];

  beforeAll(async () => {
    t = await openTestCatalogue();
    const author = await addAuthor(t, 'Queue Author');
    bookId = await addBook(t, 'Much Wanted', 2020, author);
    const lender = await addUser(t, 'First Reader');
    const loan = await t.as(lender.token).send('POST', `/books/${bookId}/borrow`, {});
    expect(loan.status).toBe(201);
    const members = [];
    for (let i = 1; i <= MEMBERS; i++) members.push(await addUser(t, `Waiting Member ${i}`));
    const answers = await Promise.all(
      members.map((m) => t.as(m.token).request(`/books/${bookId}/holds`, { method: 'POST' })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      const hold = await json(answer);
      told.push({ id: hold.id, position: hold.position });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every 201 tells a distinct position, 1 to 20', () => {
    expect(told.map((h) => h.position).sort((a, b) => a - b)).toEqual(Array.from({ length: MEMBERS }, (_, i) => i + 1));
  });

  it('each position told is the place the database queued the hold at', async () => {
    const queued = rowsOf<{ id: number; place: number }>(
      await t.database.db.execute(sql`select id, row_number() over (order by placed_at, id)::int as place
        from holds where book_id = ${bookId} and status = 'waiting'`),
    );
    const place = new Map(queued.map((row) => [Number(row.id), row.place]));
    expect(told.map((h) => [h.id, h.position])).toEqual(told.map((h) => [h.id, place.get(h.id)]));
  });
});
