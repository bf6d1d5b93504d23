/**
 * Two server processes on one PostgreSQL database, each remembering who its tokens belong to: a token
 * used on both, revoked through one, is refused by the other within a second; a librarian demoted
 * through one loses librarian rights on the other within a second; a browser session signed out on one
 * ends on the other. Killing the connections they listen on does not break that: each listens again.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENING_APPLICATION_NAME } from '../../src/db/listen.js';
import { json } from '../support/catalogue.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import type {
  AuthorDocument,
  BookDocument,
  NewTokenDocument,
  RootDocument,
  UserDocument,
} from '../support/documents.js';
import { millisecondsUntil } from '../support/poll.js';
import { call, created, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'revocation-admin-token-0123456789abcdef';

describe('a change made through one server process reaches the other within a second', () => {
  const serverUrl = process.env.DATABASE_URL as string;
  let shared: PostgresDatabase;
  let admin: postgres.Sql;
  let a: RunningServer;
  let b: RunningServer;
  let bookPath: string;

  beforeAll(async () => {
    shared = await createPostgresDatabase(serverUrl, 'revocation');
    // A connection to the server, to see and end the servers' connections to the shared database.
    admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    const options = {
      database: { env: { DATABASE_URL: shared.url } },
      env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN, CATALOGUE_SEED: 'none' },
    };
    a = await startServer(options);
    b = await startServer(options);
    const author = await created<AuthorDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Revocation Author' }),
      'author',
    );
    const book = await created<BookDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/books', {
        title: 'Revocation',
        publication_year: 2024,
        author_id: author.id,
      }),
      'book',
    );
    bookPath = `/books/${book.id}`;
  });

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await admin?.end();
    await shared?.drop();
  });

  /** A new user with a token, created through server A. */
  async function newUser(userName: string, role: 'member' | 'librarian') {
    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: userName, role }),
      'user',
    );
    const token = await created<NewTokenDocument>(
      await call(a, ADMIN_TOKEN, 'POST', `/users/${user.id}/tokens`, {}),
      'token',
    );
    return { id: user.id as number, tokenId: token.id as number, token: token.token as string };
  }

  /** Uses the token on both servers, more than once, so that both remember it. */
  async function useOnBoth(token: string, path: string) {
    for (const server of [a, b, a, b]) expect((await call(server, token, 'GET', path)).status).toBe(200);
  }

  /** The PIDs of the backends listening for the catalogue's notifications. */
  async function listeners(): Promise<number[]> {
    const rows = await admin`
      select pid from pg_stat_activity
      where datname = ${shared.name} and application_name = ${LISTENING_APPLICATION_NAME} order by pid`;
    return rows.map((row) => row.pid as number);
  }

  it('a token revoked through A is refused by B within a second', async () => {
    const member = await newUser('Revoked Member', 'member');
    await useOnBoth(member.token, bookPath);
    const revoked = await call(a, ADMIN_TOKEN, 'DELETE', `/users/${member.id}/tokens/${member.tokenId}`);
    expect(revoked.status).toBe(204);
    expect((await call(a, member.token, 'GET', bookPath)).status).toBe(401);
    const ms = await millisecondsUntil(async () => (await call(b, member.token, 'GET', bookPath)).status === 401);
    expect(ms, `B refused after ${ms} ms`).toBeLessThan(1000);
  });

  it('a librarian demoted through A loses librarian rights on B within a second', async () => {
    const librarian = await newUser('Demoted Librarian', 'librarian');
    await useOnBoth(librarian.token, '/users');
    const demoted = await call(a, ADMIN_TOKEN, 'PATCH', `/users/${librarian.id}`, { role: 'member' });
    expect(demoted.status).toBe(200);
    const ms = await millisecondsUntil(async () => (await call(b, librarian.token, 'GET', '/users')).status === 403);
    expect(ms, `B refused after ${ms} ms`).toBeLessThan(1000);
    // Still a member on both: the token works, the librarian's controls are gone.
    const book = await json<BookDocument>(await call(b, librarian.token, 'GET', bookPath));
    expect(Object.keys(book.controls)).not.toContain('update');
  });

  it('a browser session signed out on A ends on B within a second', async () => {
    const member = await newUser('Signed Out Member', 'member');
    const signIn = await fetch(new URL('/session', a.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: member.token }),
    });
    expect(signIn.status).toBeLessThan(400);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const asSession = (server: RunningServer, method = 'GET', path = '/') =>
      fetch(new URL(path, server.url), { method, headers: { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' } });
    const signedIn = async (server: RunningServer) =>
      (await json<RootDocument>(await asSession(server))).links.some((link: { rel: string }) => link.rel === 'me');
    expect(await signedIn(a)).toBe(true);
    expect(await signedIn(b)).toBe(true);
    expect((await asSession(a, 'DELETE', '/session')).status).toBeLessThan(400);
    const ms = await millisecondsUntil(async () => !(await signedIn(b)));
    expect(ms, `B signed out after ${ms} ms`).toBeLessThan(1000);
  });

  it('after the listening connections are killed, both listen again and revocations still arrive', async () => {
    const before = await listeners();
    expect(before).toHaveLength(2);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where pid in ${admin(before)}`;
    const ms = await millisecondsUntil(async () => {
      const now = await listeners();
      return now.length === 2 && now.every((pid) => !before.includes(pid));
    });
    expect(ms, `listening again after ${ms} ms`).toBeLessThan(5000);

    const member = await newUser('Revoked After Reconnect', 'member');
    await useOnBoth(member.token, bookPath);
    expect((await call(a, ADMIN_TOKEN, 'DELETE', `/users/${member.id}/tokens/${member.tokenId}`)).status).toBe(204);
    const refused = await millisecondsUntil(async () => (await call(b, member.token, 'GET', bookPath)).status === 401);
    expect(refused, `B refused after ${refused} ms`).toBeLessThan(1000);
  });
});
