/**
 * @module drizzle's prepared statements (`.prepare(name)`), built once per database and name: a hot read
 * then skips building its query. A transaction is a database of its own here.
 */
import type { Db } from './client.js';

const statements = new WeakMap<Db, Map<string, unknown>>();

/** The statement named `name` of this database, built by `build` on first use. */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  if (!byName.has(name)) byName.set(name, build(db));
  return byName.get(name) as T;
}
