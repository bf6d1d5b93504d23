/**
 * @module The drizzle database both drivers are exposed as, and the rows of its `execute`: what a query
 * needs, without the opening and closing that `client.ts` does.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** drizzle's `execute` answers an array on postgres.js and `{ rows }` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
