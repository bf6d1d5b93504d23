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
  // `has`, not the value: a database without such a statement (`null`) is not asked again.
  if (!byName.has(name)) byName.set(name, make());
  return byName.get(name) as Statement;
}

/** Rows answered as arrays of values, keyed by `columns` (the selection's keys, in the select list's order). */
export function keyedRows<Row>(rows: readonly (readonly unknown[])[], columns: readonly string[]): Row[] {
  const make = rowMakerOf(columns) as (cells: readonly unknown[]) => Row;
  const keyed: Row[] = [];
  for (let i = 0; i < rows.length; i++) keyed.push(make(rows[i] as readonly unknown[]));
  return keyed;
}

type RowMaker = (cells: readonly unknown[]) => Record<string, unknown>;

const rowMakers = new WeakMap<readonly string[], RowMaker>();

/**
 * A function that makes a row of `columns` as one object literal, written once per selection. Assigning
 * the keys one by one from the list went through a generic store per cell and grew each row's shape
 * key by key (2.7 µs of a book's read in a CPU profile); a literal gives every row its shape at once.
 * The keys are the code's own selection keys, each written as a JSON string (computed for `__proto__`,
 * which a literal would otherwise take for the prototype).
 */
function rowMakerOf(columns: readonly string[]): RowMaker {
  let make = rowMakers.get(columns);
  if (!make) {
    const members = columns.map((column, i) => {
      const key = column === '__proto__' ? `[${JSON.stringify(column)}]` : JSON.stringify(column);
      return `${key}: cells[${i}]`;
    });
    make = new Function('cells', `return { ${members.join(', ')} };`) as RowMaker;
    rowMakers.set(columns, make);
  }
  return make;
}
