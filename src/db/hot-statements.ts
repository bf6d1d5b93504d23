/**
 * @module What the hot statements of both drivers share (`postgres-statement.ts`, `pglite-statement.ts`):
 * each made once per database and name, and rows answered as arrays, given the selection's keys.
 */
import type { Db } from './client.js';

const statements = new WeakMap<Db, Map<string, unknown>>();

/** The statement `name` of `db`, made by `make` the first time it is asked for. */
export function statementOf<Statement>(db: Db, name: string, make: () => Statement): Statement {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as Statement | undefined;
  if (!statement) {
    statement = make();
    byName.set(name, statement);
  }
  return statement;
}

/** Rows answered as arrays of values, keyed by `columns` (the selection's keys, in the select list's order). */
export function keyedRows<Row>(rows: readonly (readonly unknown[])[], columns: readonly string[]): Row[] {
  return rows.map((cells) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i] as string] = cells[i];
    return row as Row;
  });
}
