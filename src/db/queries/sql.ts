/** @module SQL fragments shared by queries. */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Any of the values' conditions: a filter whose repeated values mean either (`status:a&filter=status:b`). */
export function anyOf(values: readonly unknown[], condition: (value: string) => SQL): SQL {
  return sql`(${sql.join(
    values.map((value) => condition(String(value))),
    sql` or `,
  )})`;
}

/**
 * The instant `at` of business time as a SQL parameter (`timestamptz`): the app's clock, passed in where a
 * query would otherwise read the database's `now()` (src/domain/clock.ts).
 */
export function businessTime(at: Date): SQL<Date> {
  return sql<Date>`${at.toISOString()}::timestamptz`;
}

/**
 * A timestamp as an ISO 8601 string in UTC, formatted by the database: the drivers disagree on how
 * they hand back timestamps (Date or text, and in which text form), and clients want ISO strings.
 */
export function isoTimestamp(column: PgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
