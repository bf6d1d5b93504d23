/**
 * @module Brings the schema up to date at start-up with the committed migrations under `drizzle/`, then
 * loads the sample catalogue into an empty database. On a server, an advisory lock makes concurrent
 * starts of several processes take turns.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { LendingSettings } from '../domain/lending-rules.js';
import { type AccessOptions, ensureAccess } from './access.js';
import type { Database, Db } from './client.js';
import { adoptLendingSettings } from './queries/lending-rules.js';
import { loadSampleCatalogue } from './seed.js';
import type { DatabaseTarget } from './target.js';
import { within } from './within.js';

// src/db/ and, compiled, dist/db/ are both two levels below the repository's drizzle/.
const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** Arbitrary constant naming the catalogue's start-up lock among other advisory locks on the server. */
const STARTUP_LOCK = 7_305_411;

export interface PrepareOptions extends AccessOptions {
  /** Load the sample catalogue when the database holds no authors and no books. */
  seedSample: boolean;
  /**
   * The operator's loan settings, which the default lending rule takes while it follows them
   * (`from_settings`); left as stored when absent.
   */
  lending?: LendingSettings | undefined;
}

/** Migrates, seeds and ensures a librarian can sign in; answers a token it created, to be shown once. */
export async function prepareDatabase(database: Database, options: PrepareOptions): Promise<string | undefined> {
  if (database.target.kind === 'pglite') {
    await migratePglite(database.db as unknown as ReturnType<typeof drizzlePglite>, { migrationsFolder });
    if (options.seedSample) await loadSampleCatalogue(database.db);
    if (options.lending) await adoptLendingSettings(database.db, options.lending);
    return ensureAccess(database.db, options);
  }
  return preparePostgres(database.target, options);
}

/**
 * `prepareDatabase` on a PostgreSQL server, on a connection of its own: what a process that serves nothing
 * itself (the primary of several workers) runs before they start.
 */
export async function preparePostgres(
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
  options: PrepareOptions,
): Promise<string | undefined> {
  // One dedicated connection: an advisory lock belongs to the session that took it, so it takes the direct
  // one. Through a transaction pooler the unlock could run on another server connection and leave the lock
  // held by a pooled one, and the next start would wait for it for ever.
  const client = postgres(target.listenUrl ?? target.url, {
    max: 1,
    onnotice: () => {},
    prepare: target.prepare ?? true,
  });
  try {
    await client`select pg_advisory_lock(${STARTUP_LOCK})`;
    const db = drizzlePostgres(client);
    await migratePostgres(db, { migrationsFolder });
    if (options.seedSample) await loadSampleCatalogue(db as unknown as Db);
    if (options.lending) await adoptLendingSettings(db as unknown as Db, options.lending);
    const token = await ensureAccess(db as unknown as Db, options);
    await client`select pg_advisory_unlock(${STARTUP_LOCK})`;
    return token;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * Answers whether the database responds within `deadlineMs`; used by `GET /health`, which a load balancer
 * needs answered promptly either way.
 */
export function databaseAnswers(db: Db, deadlineMs: number): Promise<boolean> {
  return within(db.execute(sql`select 1`), deadlineMs).then(
    () => true,
    () => false,
  );
}
