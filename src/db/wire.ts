/**
 * @module The little of PostgreSQL's wire protocol (protocol version 3) that a hot read on PGlite needs:
 * a simple query to send, and the rows of its answer, read as their column types say. PGlite's own reading
 * of an answer (every message an object, every value through its type parsers) was a quarter of the
 * embedded server's CPU on `GET /books/{id}`.
 */

/** A value's type as the answer names it (`pg_type` oid): those a hot statement may answer. */
const INT2 = 21;
const INT4 = 23;
const BOOL = 16;
const TEXT = 25;
const VARCHAR = 1043;
const JSON_TYPE = 114;
const JSONB = 3802;

/** An error PostgreSQL answered, with its SQLSTATE as `code`, like the drivers' own errors. */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly severity: string | undefined,
  ) {
    super(message);
    this.name = 'PostgresError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A simple-query message ('Q') carrying `sql`. */
export function simpleQuery(sql: string): Uint8Array {
  const text = encoder.encode(sql);
  const message = new Uint8Array(text.length + 6);
  message[0] = 0x51; // 'Q'
  new DataView(message.buffer).setInt32(1, text.length + 5);
  message.set(text, 5);
  return message;
}

/**
 * The rows of an answer, each an array of its values in column order: numbers for `smallint` and `integer`
 * columns (as drizzle gives them), booleans, text, and parsed JSON. Throws the first error the answer holds, and on a
 * column type it does not know rather than guess at its text.
 */
export function answeredRows(answer: Uint8Array): unknown[][] {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  const rows: unknown[][] = [];
  let types: number[] = [];
  let at = 0;
  while (at + 5 <= answer.length) {
    const kind = answer[at] as number;
    const end = at + 1 + view.getInt32(at + 1);
    let p = at + 5;
    if (kind === 0x54) {
      // 'T' RowDescription: per column its name, table, attribute, type, size, modifier, format.
      const count = view.getInt16(p);
      p += 2;
      types = [];
      for (let i = 0; i < count; i++) {
        p = answer.indexOf(0, p) + 1;
        types.push(view.getInt32(p + 6));
        p += 18;
      }
    } else if (kind === 0x44) {
      // 'D' DataRow: per column its length (-1 for null) and its text.
      const count = view.getInt16(p);
      p += 2;
      const row: unknown[] = [];
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(p);
        p += 4;
        if (length < 0) {
          row.push(null);
          continue;
        }
        row.push(typedValue(types[i] as number, decoder.decode(answer.subarray(p, p + length))));
        p += length;
      }
      rows.push(row);
    } else if (kind === 0x45) {
      throw errorOf(answer, p, end);
    }
    at = end;
  }
  return rows;
}

function typedValue(type: number, text: string): unknown {
  switch (type) {
    case INT2:
    case INT4:
      return Number(text);
    case BOOL:
      return text === 't';
    case TEXT:
    case VARCHAR:
      return text;
    case JSON_TYPE:
    case JSONB:
      return JSON.parse(text);
    default:
      throw new TypeError(`a hot statement answered a column of type ${type}, which it does not read`);
  }
}

/** 'E' ErrorResponse: fields, each a code byte and its text, ended by a zero byte. */
function errorOf(answer: Uint8Array, from: number, end: number): PostgresError {
  const fields = new Map<string, string>();
  let p = from;
  while (p < end && answer[p] !== 0) {
    const field = String.fromCharCode(answer[p] as number);
    const close = answer.indexOf(0, p + 1);
    fields.set(field, decoder.decode(answer.subarray(p + 1, close)));
    p = close + 1;
  }
  return new PostgresError(fields.get('M') ?? 'the database answered an error', fields.get('C'), fields.get('S'));
}
