/**
 * A fresh database for one test: on PostgreSQL (the server DATABASE_URL names, or one given) a uniquely
 * named database, created here and dropped `with (force)`; without a server, PGlite, in memory or in a
 * temporary directory when it must outlive one process.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client.js';
import { prepareDatabase } from '../../src/db/migrate.js';
import type { DatabaseTarget } from '../../src/db/target.js';

/** A database on a PostgreSQL server, of one test's own. */
export interface PostgresDatabase {
  /** Its name, e.g. `catalogue_browser_4242_0a1b2c3d`. */
  name: string;
  /** The server's URL with this database in its path. */
  url: string;
  /** Drops it `with (force)`, ending whatever connections are still open to it. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named database on the PostgreSQL server `serverUrl` names. `label` goes into its name,
 * so that a database left behind says which test made it.
 */
export async function createPostgresDatabase(serverUrl: string, label = 'test'): Promise<PostgresDatabase> {
  const name = `catalogue_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.href,
    async drop() {
      try {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * When the suite runs behind a transaction pooler (DATABASE_URL names pgbouncer), DATABASE_LISTEN_URL names
 * the server behind it: this is `url`'s database there, for what needs a session of its own (LISTEN, the
 * start-up lock), as the service would be configured. Otherwise nothing.
 */
export function directUrlOf(url: string): string | undefined {
  const direct = process.env.DATABASE_LISTEN_URL;
  if (!direct) return undefined;
  const same = new URL(direct);
  same.pathname = new URL(url).pathname;
  return same.href;
}

/** `createPostgresDatabase`, migrated: the catalogue's tables, no sample data, no connection left open. */
export async function createMigratedPostgresDatabase(serverUrl: string, label = 'test'): Promise<PostgresDatabase> {
  const created = await createPostgresDatabase(serverUrl, label);
  const database = await openDatabase({ kind: 'postgres', url: created.url });
  try {
    await prepareDatabase(database, { seedSample: false });
  } finally {
    await database.close();
  }
  return created;
}

/** A fresh database, as a server process is pointed at it and as the app opens it in-process. */
export interface FreshDatabase {
  /** The environment that points a process at it (`DATABASE_URL`, or `CATALOGUE_DATA_DIR` with no URL). */
  env: Record<string, string>;
  /** The same as a target for `openDatabase` (an in-memory PGlite one is a new, empty database each time). */
  target: DatabaseTarget;
  /** Drops the database, or removes the directory. */
  drop(): Promise<void>;
}

export interface FreshDatabaseOptions {
  /** The PostgreSQL server to create it on; by default DATABASE_URL's; with neither, PGlite. */
  serverUrl?: string;
  /** On PGlite: in a temporary directory, so that it outlives a process (the CLI, then a server). */
  persistent?: boolean;
  /** Part of its name or directory, naming the test that made it. */
  label?: string;
}

export async function freshDatabase(options: FreshDatabaseOptions = {}): Promise<FreshDatabase> {
  const label = options.label ?? 'test';
  const serverUrl = options.serverUrl ?? process.env.DATABASE_URL;
  if (serverUrl) {
    const { url, drop } = await createPostgresDatabase(serverUrl, label);
    return { env: { DATABASE_URL: url }, target: { kind: 'postgres', url }, drop };
  }
  if (!options.persistent) {
    return {
      env: { DATABASE_URL: '', CATALOGUE_DATA_DIR: 'memory://' },
      target: { kind: 'pglite', dataDir: 'memory://' },
      drop: async () => {},
    };
  }
  const dir = await mkdtemp(join(tmpdir(), `catalogue-${label}-`));
  return {
    env: { DATABASE_URL: '', CATALOGUE_DATA_DIR: dir },
    target: { kind: 'pglite', dataDir: dir },
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}
