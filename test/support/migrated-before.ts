/**
 * A database as an older release left it, for testing a migration on it: drizzle/ copied with its journal cut
 * before the migration `tag` names, and those migrations run, on PGlite in memory or (with DATABASE_URL) on
 * a PostgreSQL database of its own. The test writes rows as that schema held them, then brings the database
 * up to date as a server does at start-up (`prepareDatabase`).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQL } from 'drizzle-orm';
import type { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { type Database, openDatabase, openPglite, rowsOf } from '../../src/db/client.js';
import { createPostgresDatabase, type PostgresDatabase } from './database.js';

export interface MigratedBefore {
  database: Database;
  /** Runs a statement, answering its rows. */
  run<T = Record<string, unknown>>(statement: SQL): Promise<T[]>;
  /** Closes the database and drops what was made for it. */
  close(): Promise<void>;
}

/** A database migrated up to, not including, the migration tagged `tag` (e.g. `0015_oai_records`). */
export async function migratedBefore(tag: string): Promise<MigratedBefore> {
  const folder = await mkdtemp(join(tmpdir(), `catalogue-before-${tag}-`));
  let server: PostgresDatabase | undefined;
  try {
    await cp('drizzle', folder, { recursive: true });
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
    if (!journal.entries.some((entry) => entry.tag === tag)) throw new Error(`no migration is tagged ${tag}`);
    journal.entries = journal.entries.filter((entry) => entry.tag < tag);
    await writeFile(journalFile, JSON.stringify(journal));

    let database: Database;
    if (process.env.DATABASE_URL) {
      server = await createPostgresDatabase(process.env.DATABASE_URL, 'migration');
      database = await openDatabase({ kind: 'postgres', url: server.url });
      await migratePostgres(database.db as unknown as ReturnType<typeof drizzlePostgres>, {
        migrationsFolder: folder,
      });
    } else {
      database = await openPglite({ kind: 'pglite', dataDir: 'memory://' });
      await migratePglite(database.db as unknown as ReturnType<typeof drizzlePglite>, { migrationsFolder: folder });
    }
    return {
      database,
      run: async <T>(statement: SQL) => rowsOf<T>(await database.db.execute(statement)),
      async close() {
        await database.close();
        await server?.drop();
        await rm(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.drop();
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
