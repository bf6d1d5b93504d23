/**
 * @module Hot single-row reads on PGlite. Its extended-protocol query, which drizzle uses, costs about
 * 300 µs even for `select 1` (parse, describe, bind and execute, each a trip into the WebAssembly
 * PostgreSQL, then planning again every time); the same statement PREPAREd once and EXECUTEd through the
 * simple protocol answered the book point select in about 65 µs against 410 µs through drizzle.
 * The arguments are written into the EXECUTE text, so only whole numbers (or lists of them, written as
 * an array literal) are accepted.
 *
 * The EXECUTE goes to PGlite as a raw protocol message and its answer is read here (`wire.ts`), not by
 * PGlite, which parses every message of an answer into objects: the book's read took 80 µs through
 * `exec`, 26 µs so. Raw messages bypass PGlite's locks, so it takes them as `exec` does: no other query
 * runs meanwhile, and no transaction is open (its statements would see this one's, and an error here
 * would end it). Nothing is written, so nothing is synced to the file system.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Db } from './client.js';
import { keyedRows, statementOf } from './hot-statements.js';
import { answeredRows, simpleQuery } from './wire.js';

/**
 * A statement taking whole numbers (or lists of them, for an `integer[]` argument) and answering rows keyed
 * like the drizzle selection it came from.
 */
export type IntegerStatement<Row> = (args: readonly (number | readonly number[])[]) => Promise<Row[]>;

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
    const written = args.map((arg) => (typeof arg === 'number' ? wholeNumber(name, arg) : arrayLiteral(name, arg)));
    prepared ??= client.exec(`PREPARE ${name} (${options.argumentTypes.join(', ')}) AS ${text}`).catch((error) => {
      prepared = undefined;
      throw error;
    });
    await prepared;
    const message = simpleQuery(`EXECUTE ${name} (${written.join(', ')})`);
    const answer = await client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(() => rawAnswer(client, message)),
    );
    return keyedRows<Row>(answeredRows(answer), options.columns);
  };
}

function wholeNumber(name: string, arg: number): string {
  if (!Number.isSafeInteger(arg)) throw new TypeError(`${name} takes whole numbers only, got ${arg}`);
  return String(arg);
}

/** `'{1,2,3}'`: PostgreSQL reads it as the array the statement's argument type says. */
function arrayLiteral(name: string, arg: readonly number[]): string {
  return `'{${arg.map((each) => wholeNumber(name, each)).join(',')}}'`;
}

/**
 * The answer's bytes as PostgreSQL wrote them, which PGlite then neither reads nor keeps. (Notifications
 * are not among them: PGlite delivers one to its listeners with the answer to the statement that committed
 * it.)
 */
export async function rawAnswer(client: PGlite, message: Uint8Array): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  // Copied: a chunk is a view of PGlite's own buffer, which the next message reuses.
  await client.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}
