/**
 * Migration 0011 (circulation) on a database made with the schema before it, on PGlite (a fresh one in
 * memory) and (with DATABASE_URL) PostgreSQL: the migrations before it build it, authors, books, users and
 * loans (active and returned) go in as that schema had them, then the database is brought up to date as
 * a server does at start-up. Every book and loan is kept, each book has one copy and each loan that copy,
 * only the books on loan have none available, and the API answers the old books as before and lends on.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { ChangeStreams, changeStreamOptions } from '../src/http/change-streams.js';
import { json } from './support/catalogue.js';
import {
  type BookDocument,
  type CollectionDocument,
  controlOf,
  type LoanDocument,
  type NewTokenDocument,
} from './support/documents.js';
import { type MigratedBefore, migratedBefore } from './support/migrated-before.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

interface OldBook {
  id: number;
  /** As the previous schema answered: no active loan. */
  available: boolean;
  due_at: string | null;
}

describe('migrating a database made before circulation', () => {
  let migrated: MigratedBefore;
  let changeStreams: ChangeStreams;
  let app: ReturnType<typeof createApp>;
  const old = {
    books: [] as OldBook[],
    loans: [] as { id: number; book_id: number; borrower_id: number; returned: boolean }[],
    members: [] as number[],
  };

  const run = <T = Record<string, unknown>>(statement: ReturnType<typeof sql>) => migrated.run<T>(statement);
  const request = (path: string, token: string, init: RequestInit = {}) =>
    app.request(path, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    migrated = await migratedBefore('0011_circulation');
    expect(await run(sql`select to_regclass('copies') as copies`)).toEqual([{ copies: null }]);

    // The catalogue as the previous schema held it.
    const authors = await run<{ id: number }>(
      sql`insert into authors (name) values ('Old Author One'), ('Old Author Two') returning id`,
    );
    const books = await run<{ id: number }>(sql`insert into books (title, publication_year, author_id)
      select 'Old Book ' || i, 1900 + i, ${authors[0]?.id}::int + i % 2 from generate_series(1, 6) as i
      order by i returning id`);
    const users = await run<{ id: number }>(sql`insert into users (name, role)
      values ('Old Member One', 'member'), ('Old Member Two', 'member'), ('Old Member Three', 'member') returning id`);
    old.members = users.map((u) => u.id);
    const [b1, b2, b3, b4] = books.map((b) => b.id) as [number, number, number, number];
    const [m1, m2, m3] = old.members as [number, number, number];
    // b1 on loan; b2 returned once, then on loan again; b3 returned; b4 returned twice; b5, b6 never lent.
    const lend = async (book: number, borrower: number, daysAgo: number, returned: boolean) => {
      const [loan] = await run<{
        id: number;
      }>(sql`insert into loans (book_id, borrower_id, borrowed_at, due_at, returned_at)
        values (${book}, ${borrower}, now() - make_interval(days => ${daysAgo}),
          now() - make_interval(days => ${daysAgo}) + interval '14 days',
          ${returned ? sql`now() - make_interval(days => ${daysAgo}) + interval '3 days'` : sql`null`})
        returning id`);
      old.loans.push({ id: loan?.id as number, book_id: book, borrower_id: borrower, returned });
    };
    await lend(b1, m1, 2, false);
    await lend(b2, m1, 40, true);
    await lend(b2, m2, 1, false);
    await lend(b3, m3, 30, true);
    await lend(b4, m2, 60, true);
    await lend(b4, m3, 20, true);
    const dues = await run<{ book_id: number; due_at: string }>(sql`select book_id,
      to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as due_at
      from loans where returned_at is null`);
    old.books = books.map(({ id }) => {
      const due = dues.find((d) => d.book_id === id);
      return { id, available: due === undefined, due_at: due?.due_at ?? null };
    });

    // Up to date, as a server does at start-up (which also registers the librarian).
    await prepareDatabase(migrated.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
    changeStreams = new ChangeStreams(migrated.database, changeStreamOptions(defaultConfig.changes));
    app = createApp({ changeStreams, database: migrated.database, rateLimits: false });
  });

  afterAll(async () => {
    changeStreams?.close();
    await migrated?.close();
  });

  it('keeps every book and every loan, gives each book one copy and each loan its book\u2019s copy', async () => {
    expect(await run(sql`select id from books order by id`)).toEqual(old.books.map((b) => ({ id: b.id })));
    const loans = await run<{ id: number; book_id: number; borrower_id: number; returned: boolean; copy_id: number }>(
      sql`select id, book_id, borrower_id, returned_at is not null as returned, copy_id from loans order by id`,
    );
    expect(loans.map(({ copy_id, ...loan }) => loan)).toEqual(old.loans);

    const copies = await run<{ id: number; book_id: number; withdrawn: boolean; barcode: string | null }>(
      sql`select id, book_id, withdrawn_at is not null as withdrawn, barcode from copies order by book_id`,
    );
    expect(copies.map((c) => c.book_id)).toEqual(old.books.map((b) => b.id));
    for (const copy of copies) expect(copy).toMatchObject({ withdrawn: false, barcode: null });
    for (const loan of loans) expect(loan.copy_id).toBe(copies.find((c) => c.book_id === loan.book_id)?.id);
    expect(await run(sql`select renewals from loans where renewals <> 0`)).toEqual([]);
  });

  it('counts one copy per book, none available exactly for the books on loan', async () => {
    const counted = await run<{ id: number; copies_total: number; copies_available: number }>(
      sql`select id, copies_total, copies_available from books order by id`,
    );
    expect(counted).toEqual(
      old.books.map((b) => ({ id: b.id, copies_total: 1, copies_available: b.available ? 1 : 0 })),
    );
  });

  it('answers the old books\u2019 documents with available and due_at as before, and lists them so', async () => {
    for (const book of old.books) {
      const response = await app.request(`/books/${book.id}`);
      expect(response.status).toBe(200);
      expect(await json<BookDocument>(response)).toMatchObject({
        id: book.id,
        available: book.available,
        due_at: book.due_at,
        copies_total: 1,
        copies_available: book.available ? 1 : 0,
      });
    }
    // Migration 0012 keeps the author's name on each book: the old books' author links still show it.
    const listed = await json<CollectionDocument<BookDocument>>(await app.request('/books?sort=id'));
    expect(
      listed.map((b: { links: { rel: string; title?: string }[] }) => b.links.find((l) => l.rel === 'author')?.title),
    ).toEqual(old.books.map((_, i) => (i % 2 === 0 ? 'Old Author Two' : 'Old Author One')));
    const onLoan = await json<CollectionDocument<BookDocument>>(
      await app.request('/books?filter=available:false&sort=id'),
    );
    expect(onLoan.map((b: { id: number }) => b.id)).toEqual(old.books.filter((b) => !b.available).map((b) => b.id));
  });

  it('lets an old active loan be returned and the book be borrowed again', async () => {
    const active = old.loans.find((l) => !l.returned) as { id: number; book_id: number };
    const [copy] = await run<{ id: number }>(sql`select id from copies where book_id = ${active.book_id}`);
    const returned = await request(`/loans/${active.id}`, LIBRARIAN_TOKEN, {
      method: 'PATCH',
      body: JSON.stringify({ status: 'returned' }),
    });
    expect(returned.status).toBe(200);
    expect(await json<LoanDocument>(returned)).toMatchObject({ id: active.id, status: 'returned', copy_id: copy?.id });

    const created = await request(`/users/${old.members[2]}/tokens`, LIBRARIAN_TOKEN, {
      method: 'POST',
      body: JSON.stringify({ name: 'after migration' }),
    });
    expect(created.status).toBe(201);
    const { token } = await json<NewTokenDocument>(created);
    const book = await json<BookDocument>(await request(`/books/${active.book_id}`, token));
    expect(book).toMatchObject({ available: true, copies_available: 1 });
    expect(book.controls.borrow).toBeDefined();
    const borrowed = await request(controlOf(book, 'borrow').href, token, { method: 'POST', body: '{}' });
    expect(borrowed.status).toBe(201);
    expect(await json<LoanDocument>(borrowed)).toMatchObject({
      book_id: active.book_id,
      borrower_id: old.members[2],
      copy_id: copy?.id,
      status: 'active',
    });
    expect(await json<BookDocument>(await app.request(`/books/${active.book_id}`))).toMatchObject({
      available: false,
      copies_available: 0,
    });
  });

  it('gives a book added after the migration its first copy', async () => {
    const [author] = await run<{ id: number }>(sql`select id from authors order by id limit 1`);
    const response = await request('/books', LIBRARIAN_TOKEN, {
      method: 'POST',
      body: JSON.stringify({ title: 'New After Migration', publication_year: 2020, author_id: author?.id }),
    });
    expect(response.status).toBe(201);
    expect(await json<BookDocument>(response)).toMatchObject({ copies_total: 1, copies_available: 1, available: true });
  });
});
