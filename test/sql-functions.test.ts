/**
 * drizzle/functions/ is where a reader finds a SQL function's current definition and its triggers, so it
 * must say what a migrated database holds: on PGlite (the migrated snapshot) and, with DATABASE_URL, on
 * PostgreSQL, one set of files for both. Migrations change the database; the files follow by
 * `npm run db:functions`.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase, openPglite } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import {
  type FunctionFile,
  functionFileText,
  readCommittedFunctionFiles,
  readFunctionFiles,
} from '../src/db/sql-functions.js';
import { createMigratedPostgresDatabase, type PostgresDatabase } from './support/database.js';

const REGENERATE = 'drizzle/functions/ differs from the migrated database: run `npm run db:functions` and commit';

let database: Database;
let server: PostgresDatabase | undefined;
let inDatabase: FunctionFile[];
let committed: Map<string, string>;

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    server = await createMigratedPostgresDatabase(process.env.DATABASE_URL, 'functions');
    database = await openDatabase({ kind: 'postgres', url: server.url });
  } else {
    const snapshot = inject('pgliteSnapshot');
    database = await openPglite(
      { kind: 'pglite', dataDir: 'memory://' },
      snapshot ? new Blob([await readFile(snapshot)]) : undefined,
    );
    if (!snapshot) await prepareDatabase(database, { seedSample: false });
  }
  inDatabase = await readFunctionFiles(database.db);
  committed = await readCommittedFunctionFiles();
});

afterAll(async () => {
  await database?.close();
  await server?.drop();
});

/** A file's name with what it should hold, for a failure message. */
function described(entry: FunctionFile): string {
  const triggers = entry.triggers.map((t) => `trigger ${t.name} on ${t.table}`);
  return `${entry.file} (${[...entry.functions.map((f) => f.signature), ...triggers].join(', ')})`;
}

describe('drizzle/functions/', () => {
  it('has a file for every function and trigger of the migrated database', () => {
    const missing = inDatabase.filter((entry) => !committed.has(entry.file)).map(described);
    expect(missing, REGENERATE).toEqual([]);
  });

  it('has no file for a function the database no longer holds', () => {
    const current = new Set(inDatabase.map((entry) => entry.file));
    const stale = [...committed.keys()].filter((file) => !current.has(file));
    expect(stale, REGENERATE).toEqual([]);
  });

  it('holds each function and its triggers as the database states them', () => {
    for (const entry of inDatabase) {
      const text = committed.get(entry.file);
      if (text === undefined) continue;
      expect(text, `${entry.file}: ${REGENERATE}`).toBe(functionFileText(entry));
    }
  });
});
