/**
 * @module Hot single-row reads on postgres.js without drizzle's per-call work. The statement is the text
 * drizzle builds once; postgres.js prepares it on the server and answers rows as arrays, which take the
 * selection's keys in order. In the profile of `GET /books/{id}` under load, drizzle's query wrapper, row
 * mapping and entity checks were about 6% of the server's CPU for a statement the server had prepared.
 */
import { Placeholder } from 'drizzle-orm';
import type { Db } from './client.js';
import { keyedRows, statementOf } from './hot-statements.js';

/** A prepared statement, given its placeholders' values by name. */
export type NamedStatement<Row> = (values: Readonly<Record<string, unknown>>) => Promise<Row[]>;

interface PostgresJs {
  unsafe(text: string, args: unknown[], options: { prepare: boolean }): { values(): Promise<unknown[][]> };
}

/**
 * On postgres.js, the query `build` makes, with rows keyed by `columns` (the selection's keys, in the
 * select list's order). Elsewhere (PGlite, or inside a transaction) `undefined`: use drizzle.
 */
export function postgresStatement<Row>(
  db: Db,
  name: string,
  options: {
    build: (db: Db) => { toSQL(): { sql: string; params: unknown[] } };
    columns: readonly string[];
  },
): NamedStatement<Row> | undefined {
  const client = (db as { $client?: unknown }).$client;
  if (!isPostgresJs(client)) return undefined;
  return statementOf(db, name, () => namedStatement<Row>(client, options.build(db).toSQL(), options.columns));
}

function isPostgresJs(client: unknown): client is PostgresJs {
  return typeof client === 'function' && typeof (client as Partial<PostgresJs>).unsafe === 'function';
}

function namedStatement<Row>(
  client: PostgresJs,
  query: { sql: string; params: unknown[] },
  columns: readonly string[],
): NamedStatement<Row> {
  // drizzle binds a placeholder once per use: `$1`, `$2`… in order, each naming the value it takes.
  const names = query.params.map((param) => {
    if (!(param instanceof Placeholder)) throw new TypeError('a hot statement takes placeholders only');
    return param.name as string;
  });
  return async (values) => {
    const rows = await client
      .unsafe(
        query.sql,
        names.map((name) => values[name]),
        { prepare: true },
      )
      .values();
    return keyedRows<Row>(rows, columns);
  };
}
