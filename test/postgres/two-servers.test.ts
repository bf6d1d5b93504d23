/**
 * Two server processes on one PostgreSQL database: started together, they take turns migrating (the
 * start-up lock) and register the administrator once; a burst of borrows of one book spread over both
 * lends it exactly once, because the database, not either process, holds the rule.
 */
import { once } from 'node:events';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { loans } from '../../src/db/schema/index.js';
import { json } from '../support/catalogue.js';
import { borrow } from '../support/circulation.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import type {
  AuthorDocument,
  BookDocument,
  CollectionDocument,
  LoanDocument,
  NewTokenDocument,
  UserDocument,
} from '../support/documents.js';
import { expectError } from '../support/errors.js';
import { call, clientOf, created, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'two-servers-admin-token-0123456789';

describe('two server processes on one PostgreSQL database', () => {
  let shared: PostgresDatabase;
  let database: Database | undefined;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    shared = await createPostgresDatabase(process.env.DATABASE_URL as string, 'two_servers');
    const options = {
      database: { env: { DATABASE_URL: shared.url } },
      env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN, CATALOGUE_SEED: 'none' },
    };
    // Together, on an empty database: both migrate and register the administrator, one after the other.
    [a, b] = await Promise.all([startServer(options), startServer(options)]);
    database = await openDatabase({ kind: 'postgres', url: shared.url });
  });

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await database?.close();
    await shared?.drop();
  });

  it('both started on the empty database and registered one administrator between them', async () => {
    for (const server of [a, b]) {
      const response = await call(server, ADMIN_TOKEN, 'GET', '/users?filter=role:librarian');
      expect(response.status).toBe(200);
      const librarians = await json<CollectionDocument<UserDocument>>(response);
      expect(librarians.map((u: { name: string }) => u.name)).toEqual(['Administrator']);
    }
  });

  it('30 borrows of one book spread over both servers: one 201, 29 × 409, one active loan', async () => {
    const author = await created<AuthorDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Shared Author' }),
      'author',
    );
    const book = await created<BookDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/books', {
        title: 'One Copy Two Servers',
        publication_year: 2020,
        author_id: author.id,
      }),
      'book',
    );
    const members: { id: number; token: string }[] = [];
    for (let i = 0; i < 30; i++) {
      const user = await created<UserDocument>(
        await call(a, ADMIN_TOKEN, 'POST', '/users', { name: `Two Server Member ${i}`, role: 'member' }),
        'user',
      );
      const token = await created<NewTokenDocument>(
        await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}),
        'token',
      );
      members.push({ id: user.id, token: token.token });
    }

    const responses = await Promise.all(
      members.map((member, i) => borrow(clientOf(i % 2 === 0 ? a : b, member.token), book.id)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(29);

    const loan = await json<LoanDocument>(responses[statuses.indexOf(201)] as Response);
    expect(loan).toMatchObject({ book_id: book.id, status: 'active', returned_at: null });
    expect(members.map((m) => m.id)).toContain(loan.borrower_id);
    for (const response of responses.filter((r) => r.status === 409)) {
      await expectError(response, 409, { message: loan.due_at });
    }

    const [active] = await (database as Database).db
      .select({ n: count() })
      .from(loans)
      .where(and(eq(loans.bookId, book.id), isNull(loans.returnedAt)));
    expect(active?.n).toBe(1);
    const [all] = await (database as Database).db.select({ n: count() }).from(loans);
    expect(all?.n).toBe(1);

    // Both servers show the book on loan until the same date.
    for (const server of [a, b]) {
      const shown = await json<BookDocument>(await fetch(new URL(`/books/${book.id}`, server.url)));
      expect(shown).toMatchObject({ available: false, due_at: loan.due_at });
    }
  });

  it('both stop on SIGTERM with exit code 0', async () => {
    const exits = [a, b].map((server) => once(server.process, 'exit'));
    a.process.kill('SIGTERM');
    b.process.kill('SIGTERM');
    const codes = (await Promise.all(exits)).map(([code]) => code);
    expect(codes).toEqual([0, 0]);
    for (const server of [a, b]) expect(server.output()).toContain('"message":"stopped"');
  });
});
