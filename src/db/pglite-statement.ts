/**
 * @module Hot single-row reads on PGlite. Its extended-protocol query, which drizzle uses, costs about
 * 300 µs even for `select 1` (parse, describe, bind and execute, each a trip into the WebAssembly
 * PostgreSQL, then planning again every time); the same statement PREPAREd once and EXECUTEd through the
 * simple protocol answered the book point select in about 65 µs against 410 µs through drizzle.
 * The arguments are written into the EXECUTE text, so only whole numbers are accepted.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Db } from './client.js';
import { keyedRows, statementOf } from './hot-statements.js';

/** A statement taking whole numbers and answering rows keyed like the drizzle selection it came from. */
export type IntegerStatement<Row> = (args: readonly number[]) => Promise<Row[]>;

/**
 * On PGlite, the query `build` makes (a drizzle select with `$1`… placeholders), prepared under `name`
 * with arguments of `argumentTypes`; its rows get the keys of `columns`, in the select list's order.
 * Elsewhere `undefined`: postgres.js prepares drizzle's statements on the server already.
 */
export function pgliteStatement<Row>(
  db: Db,
  name: string,
  options: { build: (db: Db) => { toSQL(): { sql: string } }; columns: readonly string[]; argumentTypes: string[] },
): IntegerStatement<Row> | undefined {
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) return undefined;
  return statementOf(db, name, () => integerStatement<Row>(client, name, options.build(db).toSQL().sql, options));
}

function integerStatement<Row>(
  client: PGlite,
  name: string,
  text: string,
  options: { columns: readonly string[]; argumentTypes: string[] },
): IntegerStatement<Row> {
  let prepared: Promise<unknown> | undefined;
  return async (args) => {
    for (const arg of args) {
      if (!Number.isSafeInteger(arg)) throw new TypeError(`${name} takes whole numbers only, got ${arg}`);
    }
    prepared ??= client.exec(`PREPARE ${name} (${options.argumentTypes.join(', ')}) AS ${text}`).catch((error) => {
      prepared = undefined;
      throw error;
    });
    await prepared;
    const [result] = await client.exec(`EXECUTE ${name} (${args.join(', ')})`, { rowMode: 'array' });
    return keyedRows<Row>((result?.rows ?? []) as unknown[][], options.columns);
  };
}
