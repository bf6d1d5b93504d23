/** @module GIN indexes as the catalogue makes them: every write goes into the index's tree at once. */
import { index, type PgColumn } from 'drizzle-orm/pg-core';

/**
 * A GIN index without PostgreSQL's pending list (`fastupdate`). With it, new entries wait in a list that
 * every search through the index reads in full, until the list reaches 4 MB and the write that fills it
 * merges it: a search would cost more the more was catalogued since. Without it, a write costs about what
 * it did (docs/architecture.md).
 */
export function ginIndex(name: string, column: PgColumn) {
  return index(name).using('gin', column).with({ fastupdate: false });
}
