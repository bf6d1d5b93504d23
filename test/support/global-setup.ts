/**
 * Prepares the database every test file starts from. On PGlite (no DATABASE_URL), one migrated
 * database is dumped once and each test file loads the dump: far cheaper than running initdb and the
 * migrations per file. On PostgreSQL, each file creates (and drops) its own database instead.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../src/db/client.js';
import { prepareDatabase } from '../../src/db/migrate.js';
import { LIBRARIAN_TOKEN } from './tokens.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a dump of a migrated, empty PGlite database; absent when testing on PostgreSQL. */
    pgliteSnapshot: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteSnapshot', undefined);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'catalogue-test-'));
  const database = await openPglite({ kind: 'pglite', dataDir: 'memory://' });
  // The same librarian every test catalogue starts with, so the snapshot holds no stranger.
  await prepareDatabase(database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
  const dump = await database.dump?.();
  if (!dump) throw new Error('PGlite cannot dump its data directory');
  await database.close();
  const file = join(dir, 'migrated.tar.gz');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
