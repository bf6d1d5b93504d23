/**
 * @module The catalogues the benchmark measures: a database per size on the PostgreSQL server
 * (`bench_<size>` unless a scenario names its own), and a PGlite directory in a temporary folder, each
 * filled by the operator's own command (`catalogue generate`). Databases are dropped afterwards unless the
 * run keeps them.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { runCatalogueCli } from './processes.js';

/**
 * A librarian's token, made at start-up from the environment (so the CLI prints none), and sent as the
 * bearer token of the librarian's scenario.
 */
export const benchToken = randomBytes(24).toString('hex');

/** Settings every catalogue process of the benchmark shares: no sample data, no log, no rate limits. */
export const catalogueEnv = {
  CATALOGUE_SEED: 'none',
  CATALOGUE_LOG: 'none',
  CATALOGUE_RATE_LIMITS: 'off',
  CATALOGUE_ADMIN_TOKEN: benchToken,
};

export interface Catalogue {
  books: number;
  authors: number;
  /** Environment naming the database: DATABASE_URL or CATALOGUE_DATA_DIR. */
  env: Record<string, string>;
  /** Book ids run from 1 to `books` in a fresh database; read back rather than assumed. */
  firstBookId: number;
  lastBookId: number;
  drop(): Promise<void>;
}

/**
 * A member's token on `catalogue`'s database, made with the operator's own command (`users add`), and
 * sent as the bearer token of the member's scenario: a reader who may borrow, as most signed-in callers are.
 */
export async function memberToken(catalogue: Catalogue): Promise<string> {
  const printed = await runCatalogueCli(
    ['users', 'add', '--name', 'Bench reader', '--role', 'member'],
    { ...catalogueEnv, ...catalogue.env },
    { capture: true },
  );
  const token = /^token (\S+)$/m.exec(printed)?.[1];
  if (!token) throw new Error('catalogue users add printed no token');
  return token;
}

/** The URL of another database on the same server. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export async function serverVersion(serverUrl: string): Promise<string> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ version: string }[]>`select version()`;
    return row?.version ?? 'unknown';
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Creates the database `name` (by default `bench_<size>`) afresh and generates `books` books into it. */
export async function postgresCatalogue(
  serverUrl: string,
  books: number,
  keep: boolean,
  name = `bench_${books}`,
): Promise<Catalogue & { env: { DATABASE_URL: string } }> {
  const drop = () => adminStatement(serverUrl, `drop database if exists ${name} with (force)`);
  await drop();
  await adminStatement(serverUrl, `create database ${name}`);
  const env = { DATABASE_URL: databaseUrl(serverUrl, name) };
  try {
    await runCatalogueCli(['generate', '--books', String(books)], { ...catalogueEnv, ...env });
    await checkpoint(env.DATABASE_URL);
    const ids = await bookIds(env.DATABASE_URL);
    return { ...ids, env, drop: async () => (keep ? undefined : drop()) };
  } catch (error) {
    // A catalogue that could not be made is nobody's to drop later.
    await drop();
    throw error;
  }
}

/** One statement on the server's own database (creating or dropping another). */
export async function adminStatement(serverUrl: string, statement: string): Promise<void> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * A PGlite directory under `parent` with `books` books. Its ids are the same as a fresh PostgreSQL
 * catalogue's (the generator is deterministic); the CLI's output is trusted for the count.
 */
export async function pgliteCatalogue(parent: string, books: number, keep: boolean): Promise<Catalogue> {
  const dataDir = join(parent, `pglite_${books}`);
  rmSync(dataDir, { recursive: true, force: true });
  const env = { CATALOGUE_DATA_DIR: dataDir };
  await runCatalogueCli(['generate', '--books', String(books)], { ...catalogueEnv, ...env });
  return {
    books,
    authors: Math.max(1, Math.round(books / 10)),
    firstBookId: 1,
    lastBookId: books,
    env,
    async drop() {
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes the pages the generator dirtied (about a gigabyte for a million books) now, rather than in a
 * checkpoint that lands in the middle of the measurements. Only a superuser (or, from PostgreSQL 15, a
 * member of pg_checkpoint) may: anyone else measures as before.
 */
async function checkpoint(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`checkpoint`;
  } catch {
    // Not permitted: the server's own checkpoints write the pages in their time.
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function bookIds(url: string): Promise<Pick<Catalogue, 'books' | 'authors' | 'firstBookId' | 'lastBookId'>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ first: number; last: number; books: number; authors: number }[]>`
      select min(id)::int as first, max(id)::int as last, count(*)::int as books,
             (select count(*)::int from authors) as authors
      from books`;
    if (!row || row.books === 0) throw new Error(`no books were generated in ${new URL(url).pathname}`);
    if (row.last - row.first + 1 !== row.books) throw new Error('book ids are not contiguous');
    return { books: row.books, authors: row.authors, firstBookId: row.first, lastBookId: row.last };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
