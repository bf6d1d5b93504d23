/**
 * A fresh catalogue for one test file: the real app over its own database, PGlite (from the migrated
 * snapshot) or, with DATABASE_URL, a PostgreSQL database created here and dropped on close.
 */
import { readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import { inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig, type OaiConfig } from '../../src/config.js';
import { type Database, openDatabase, openPglite } from '../../src/db/client.js';
import { prepareDatabase } from '../../src/db/migrate.js';
import type { Clock } from '../../src/domain/clock.js';
import type { LendingSettings } from '../../src/domain/lending-rules.js';
import type { PinLockout } from '../../src/domain/pin.js';
import type { AccessPolicy } from '../../src/domain/policy.js';
import type { RateLimits } from '../../src/domain/rate-limits.js';
import { type ChangeStreamOptions, ChangeStreams, changeStreamOptions } from '../../src/http/change-streams.js';
import type { AppEnv } from '../../src/http/env.js';
import type { TestClient } from './client.js';
import { createPostgresDatabase, directUrlOf } from './database.js';
import type { AuthorDocument, BookDocument, TokenDocument, UserDocument } from './documents.js';
import { LIBRARIAN_TOKEN } from './tokens.js';

export type { TestClient };
export { LIBRARIAN_TOKEN };

/** The default client is the librarian; `anonymous` and `as(token)` speak for others. */
export interface TestCatalogue extends TestClient {
  database: Database;
  /** Which database the suite runs on, for messages. */
  kind: 'pglite' | 'postgres';
  anonymous: TestClient;
  as(token: string): TestClient;
  /** The app's change feed streams, to count the open ones. */
  changeStreams: ChangeStreams;
  /** The app itself, to serve it on a socket for clients that speak HTTP only. */
  app: Hono<AppEnv>;
  close(): Promise<void>;
}

export interface TestCatalogueOptions {
  seedSample?: boolean;
  publicUrl?: string;
  /** Who may do what, and the settings the default lending rule takes (as the service's start-up writes them). */
  access?: Partial<AccessPolicy & LendingSettings>;
  /** Off unless a test is about them: suites make hundreds of writes as one librarian. */
  rateLimits?: RateLimits;
  /** Where they are counted; the app's default for the database when absent. */
  rateLimitCounting?: 'database' | 'process';
  /** Matches counted exactly per listing; small values exercise estimated totals with little data. */
  listingCountLimit?: number;
  /** Items a `page=N` jump may skip by OFFSET; small values exercise deep pages with little data. */
  pageJumpLimit?: number;
  /** Bounds of the change feed's event streams (a short keep-alive, few streams). */
  changeStreams?: Partial<ChangeStreamOptions>;
  /** The OAI-PMH endpoint's settings (a small page size exercises resumption tokens). */
  oai?: Partial<OaiConfig>;
  /** Largest file an import takes (a small one exercises the limit). */
  importMaxBytes?: number;
  /** Business time (a `fixedClock` the test moves); the machine's clock when absent. */
  clock?: Clock;
  /** The library's time zone, in which branches' days (due dates, closures) run; UTC when absent. */
  timeZone?: string;
  /** Wrong PINs that lock a library card, and for how long; the defaults when absent. */
  pins?: PinLockout;
}

export async function openTestCatalogue(options: TestCatalogueOptions = {}): Promise<TestCatalogue> {
  const { database, drop } = await openFreshDatabase();
  const access = { ...defaultConfig.access, ...options.access };
  await prepareDatabase(database, {
    seedSample: options.seedSample ?? false,
    adminToken: LIBRARIAN_TOKEN,
    lending: access,
  });
  const changeStreams = new ChangeStreams(database, {
    ...changeStreamOptions(defaultConfig.changes),
    ...options.changeStreams,
  });
  const app = createApp({
    changeStreams,
    database,
    publicUrl: options.publicUrl,
    access,
    rateLimits: options.rateLimits ?? false,
    rateLimitCounting: options.rateLimitCounting,
    listingCountLimit: options.listingCountLimit,
    pageJumpLimit: options.pageJumpLimit,
    oai: { ...defaultConfig.oai, ...options.oai },
    importMaxBytes: options.importMaxBytes,
    clock: options.clock,
    timeZone: options.timeZone,
    pins: options.pins,
  });
  const client = (token: string | undefined): TestClient => {
    const request = async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (token !== undefined && !headers.has('authorization')) headers.set('Authorization', `Bearer ${token}`);
      return app.request(path, { ...init, headers });
    };
    return {
      request,
      send: (method, path, body, headers = {}) =>
        request(path, {
          method,
          headers: { 'Content-Type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
    };
  };
  return {
    database,
    kind: database.target.kind,
    ...client(LIBRARIAN_TOKEN),
    anonymous: client(undefined),
    as: client,
    changeStreams,
    app,
    async close() {
      changeStreams.close();
      await database.close();
      await drop();
    },
  };
}

async function openFreshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const snapshot = inject('pgliteSnapshot');
    const dump = snapshot ? new Blob([await readFile(snapshot)]) : undefined;
    const database = await openPglite({ kind: 'pglite', dataDir: 'memory://' }, dump);
    return { database, drop: async () => {} };
  }
  const created = await createPostgresDatabase(serverUrl);
  try {
    // As the service would be configured behind a transaction pooler, when the suite runs behind one.
    const prepare = process.env.DATABASE_PREPARE !== 'false';
    const listenUrl = directUrlOf(created.url);
    const target = { kind: 'postgres' as const, url: created.url, prepare, ...(listenUrl && { listenUrl }) };
    return { database: await openDatabase(target), drop: created.drop };
  } catch (error) {
    await created.drop();
    throw error;
  }
}

/** Reads a JSON body as the document `T` the caller names; unnamed, it is `unknown` and must be narrowed. */
export async function json<T = unknown>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The href of the link with this rel in a seed-JSON representation. */
export function linkHref(body: { links?: { rel: string; href: string }[] }, rel: string): string | undefined {
  return body.links?.find((l) => l.rel === rel)?.href;
}

/** Creates an author over HTTP and answers their id. */
export async function addAuthor(t: TestCatalogue, name: string): Promise<number> {
  const response = await t.send('POST', '/authors', { name });
  if (response.status !== 201) throw new Error(`creating author ${name}: ${response.status} ${await response.text()}`);
  return (await json<AuthorDocument>(response)).id;
}

/** Creates a book over HTTP and answers its id. */
export async function addBook(
  t: TestCatalogue,
  title: string,
  publication_year: number,
  author_id: number,
): Promise<number> {
  const response = await t.send('POST', '/books', { title, publication_year, author_id });
  if (response.status !== 201) throw new Error(`creating book ${title}: ${response.status} ${await response.text()}`);
  return (await json<BookDocument>(response)).id;
}

/** Creates a user with a token over HTTP (as the librarian) and answers both. */
export async function addUser(
  t: TestCatalogue,
  name: string,
  role: 'member' | 'librarian' = 'member',
): Promise<{ id: number; token: string }> {
  const created = await t.send('POST', '/users', { name, role });
  if (created.status !== 201) throw new Error(`creating user ${name}: ${created.status} ${await created.text()}`);
  const { id } = await json<UserDocument>(created);
  const response = await t.send('POST', `/users/${id}/tokens`, { name: 'test' });
  if (response.status !== 201)
    throw new Error(`creating token for ${name}: ${response.status} ${await response.text()}`);
  const { token } = await json<TokenDocument>(response);
  if (token === undefined) throw new Error(`the token created for ${name} carries no secret`);
  return { id, token };
}
