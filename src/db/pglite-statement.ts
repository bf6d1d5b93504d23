/**
 * @module Hot reads on PGlite: a statement PREPAREd once and EXECUTEd through `exec`, PGlite's simple
 * query, because its extended-protocol `query` (which drizzle uses) parses and plans the statement anew on
 * every call (figures in docs/performance.md). Arguments are written into the EXECUTE text: whole numbers only.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Db } from './client.js';

/** A statement taking whole numbers (or lists of them) and answering rows keyed like its drizzle selection. */
export type IntegerStatement<Row> = (args: readonly (number | readonly number[])[]) => Promise<Row[]>;

/**
 * On PGlite outside a transaction, the select `build` makes, prepared under `name` with arguments of
 * `argumentTypes`; its rows get the keys of `columns` (the selection's, in the select list's order). Elsewhere `undefined`: a transaction's statements must run in it, through drizzle.
 */
export function pgliteStatement<Row>(
  db: Db,
  name: string,
  options: { build: (db: Db) => { toSQL(): { sql: string } }; columns: readonly string[]; argumentTypes: string[] },
): IntegerStatement<Row> | undefined {
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) return undefined;
  const text = `PREPARE ${name} (${options.argumentTypes.join(', ')}) AS ${options.build(db).toSQL().sql}`;
  let prepared: Promise<unknown> | undefined;
  return async (args) => {
    const written = args.map((arg) => (typeof arg === 'number' ? wholeNumber(name, arg) : arrayLiteral(name, arg)));
    prepared ??= client.exec(text).catch((error: unknown) => {
      prepared = undefined;
      throw error;
    });
    await prepared;
    const [result] = await client.exec(`EXECUTE ${name} (${written.join(', ')})`, { rowMode: 'array' });
    return (result?.rows ?? []).map((cells) => keyed<Row>(cells as unknown as unknown[], options.columns));
  };
}

function keyed<Row>(cells: readonly unknown[], keys: readonly string[]): Row {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) row[keys[i] as string] = cells[i];
  return row as Row;
}

function wholeNumber(name: string, arg: number): string {
  if (!Number.isSafeInteger(arg)) throw new TypeError(`${name} takes whole numbers only, got ${arg}`);
  return String(arg);
}

/** `'{1,2,3}'`: PostgreSQL reads it as the array the statement's argument type says. */
function arrayLiteral(name: string, arg: readonly number[]): string {
  return `'{${arg.map((each) => wholeNumber(name, each)).join(',')}}'`;
}
