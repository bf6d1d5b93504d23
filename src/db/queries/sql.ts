/** @module SQL fragments shared by queries. */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A timestamp as an ISO 8601 string in UTC, formatted by the database: the drivers disagree on how
 * they hand back timestamps (Date or text, and in which text form), and clients want ISO strings.
 */
export function isoTimestamp(column: PgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
