/**
 * Circulation with two server processes on one PostgreSQL database: members racing for the last copy
 * through different processes get one loan between them; a ready hold past its time passes to the next
 * member through the sweep each process runs (every 15 s), with nobody touching the book; and a hold
 * placed through one process keeps a copy returned through it from being lent through the other.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../../src/db/client.js';
import { SWEEP_EVERY_MS } from '../../src/db/hold-expiry.js';
import { json } from '../support/catalogue.js';
import { borrow, borrowed, held, returned } from '../support/circulation.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import type {
  AuthorDocument,
  BookDocument,
  HoldDocument,
  LoanDocument,
  NewTokenDocument,
  UserDocument,
} from '../support/documents.js';
import { expectError } from '../support/errors.js';
import { millisecondsUntil } from '../support/poll.js';
import { call, clientOf, created, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'circulation-two-servers-admin-token-0123';

describe('circulation across two server processes on one PostgreSQL database', () => {
  let shared: PostgresDatabase;
  let database: Database | undefined;
  let a: RunningServer;
  let b: RunningServer;
  let author: number;
  let serial = 0;

  beforeAll(async () => {
    shared = await createPostgresDatabase(process.env.DATABASE_URL as string, 'circulation_two');
    const options = {
      database: { env: { DATABASE_URL: shared.url } },
      env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN, CATALOGUE_SEED: 'none', CATALOGUE_RATE_LIMITS: 'off' },
    };
    [a, b] = await Promise.all([startServer(options), startServer(options)]);
    database = await openDatabase({ kind: 'postgres', url: shared.url });
    author = (
      await created<AuthorDocument>(
        await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Two Process Author' }),
        'author',
      )
    ).id;
  });

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await database?.close();
    await shared?.drop();
  });

  async function member(): Promise<{ id: number; token: string }> {
    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: `Two Process Member ${++serial}`, role: 'member' }),
      'user',
    );
    const token = await created<NewTokenDocument>(
      await call(b, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}),
      'token',
    );
    return { id: user.id, token: token.token };
  }

  async function oneCopyBook(): Promise<number> {
    const book = await created<BookDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/books', {
        title: `Two Process Book ${++serial}`,
        publication_year: 2021,
        author_id: author,
      }),
      'book',
    );
    return book.id;
  }

  async function run<T = Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<T[]> {
    return rowsOf<T>(await (database as Database).db.execute(statement));
  }

  it('members racing for the last copy through different processes: one loan between them (10 rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const id = await oneCopyBook();
      const racers = [await member(), await member(), await member(), await member()];
      const responses = await Promise.all(
        racers.map((racer, i) => borrow(clientOf(i % 2 === 0 ? a : b, racer.token), id)),
      );
      const statuses = responses.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 201),
        `round ${round}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        `round ${round}`,
      ).toHaveLength(3);
      for (const response of responses.filter((r) => r.status === 409)) {
        await expectError(response, 409, { message: /hold/, what: `round ${round}` });
      }
      const loan = await json<LoanDocument>(responses[statuses.indexOf(201)] as Response);
      expect(await run(sql`select borrower_id from loans where book_id = ${id} and returned_at is null`)).toEqual([
        { borrower_id: loan.borrower_id },
      ]);
      for (const server of [a, b]) {
        expect(await json<BookDocument>(await call(server, ADMIN_TOKEN, 'GET', `/books/${id}`))).toMatchObject({
          available: false,
          copies_available: 0,
        });
      }
    }
  });

  it('a ready hold past its time passes to the next member through the periodic sweep', async () => {
    const id = await oneCopyBook();
    const [lender, first, next] = [await member(), await member(), await member()];
    const loan = await borrowed(clientOf(a, lender.token), id);
    const firstHold = await held(clientOf(a, first.token), id);
    const nextHold = await held(clientOf(b, next.token), id);
    await returned(clientOf(b, lender.token), loan.id);
    expect(await json<HoldDocument>(await call(a, first.token, 'GET', `/holds/${firstHold.id}`))).toMatchObject({
      status: 'ready',
      copy_id: loan.copy_id,
    });

    // Its time runs out; nobody touches the book. One of the processes' sweeps passes the copy on.
    await run(sql`update holds set ready_until = now() - interval '1 second' where id = ${firstHold.id}`);
    const readyForNext = async () =>
      (await json<HoldDocument>(await call(b, next.token, 'GET', `/holds/${nextHold.id}`))).status === 'ready';
    const waited = await millisecondsUntil(readyForNext, 2 * SWEEP_EVERY_MS + 10_000);
    expect(waited, 'the next hold became ready within two sweeps').toBeLessThan(Number.POSITIVE_INFINITY);

    expect(await json<HoldDocument>(await call(a, first.token, 'GET', `/holds/${firstHold.id}`))).toMatchObject({
      status: 'expired',
    });
    const forNext = await json<BookDocument>(await call(a, next.token, 'GET', `/books/${id}`));
    expect(forNext).toMatchObject({ hold_status: 'ready' });
    expect(forNext.controls.borrow).toBeDefined();
    await expectError(await borrow(clientOf(b, first.token), id), 409);
    const lent = await borrow(clientOf(a, next.token), id);
    expect(lent.status).toBe(201);
    expect(await json<LoanDocument>(lent)).toMatchObject({ borrower_id: next.id, copy_id: loan.copy_id });
  }, 60_000);

  it('a hold placed through one process keeps the returned copy from a borrow through the other', async () => {
    const id = await oneCopyBook();
    const [lender, holder, other] = [await member(), await member(), await member()];
    const loan = await borrowed(clientOf(a, lender.token), id);
    await held(clientOf(a, holder.token), id);
    await returned(clientOf(a, lender.token), loan.id);

    const seen = await json<BookDocument>(await call(b, other.token, 'GET', `/books/${id}`));
    expect(seen.controls.borrow).toBeUndefined();
    expect(seen.controls.hold).toBeDefined();
    await expectError(await borrow(clientOf(b, other.token), id), 409);
    await expectError(await borrow(clientOf(b, ADMIN_TOKEN), id, { borrower_id: other.id }), 409);
    const lent = await borrow(clientOf(b, holder.token), id);
    expect(lent.status).toBe(201);
    expect(await json<LoanDocument>(lent)).toMatchObject({ borrower_id: holder.id, copy_id: loan.copy_id });
  });
});
