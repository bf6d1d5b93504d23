/**
 * @module One SIP2 message as read from a terminal's bytes (3M SIP2 2.00): the checksum checked on the bytes
 * themselves, then the text in the terminal's character set, split into its code, fixed fields and variable
 * fields; and an answer written the other way round. A field's value never carries `|` or a line end.
 */
import { checksum } from './checksum.js';
import { REQUESTS } from './messages.js';

/** A request as read: its code, its fixed fields, its variable fields by tag (the first of each), its AY. */
export interface Request {
  code: string;
  fixed: string[];
  fields: Map<string, string>;
  /** The sequence number (AY), when the message carried one. */
  sequence: string | undefined;
}

/** What reading a message found: a request, or why it cannot be one. */
export type Reading =
  | { kind: 'request'; request: Request }
  /** The checksum is wrong or missing where it must be there: the terminal is asked to send it again (96). */
  | { kind: 'corrupt' }
  /** A code this listener does not answer, or a message too short for its fixed fields. */
  | { kind: 'unknown'; code: string };

const TRAILER = /AY(\d)AZ([0-9A-Fa-f]{4})$|AZ([0-9A-Fa-f]{4})$/;

/**
 * Reads one message (its bytes without the carriage return). `checksumRequired`: a message without AZ is
 * corrupt (the terminal has error detection on). A message with AZ is checked whatever the setting.
 */
export function readMessage(bytes: Buffer, decode: (bytes: Buffer) => string, checksumRequired: boolean): Reading {
  const text = decode(bytes);
  const trailer = TRAILER.exec(text);
  let sequence: string | undefined;
  let body = text;
  if (trailer) {
    const sent = (trailer[2] ?? trailer[3] ?? '').toUpperCase();
    // The four hexadecimal digits are ASCII in every character set read: the sum stops four bytes from the end.
    if (checksum(bytes.subarray(0, bytes.length - 4)) !== sent) return { kind: 'corrupt' };
    sequence = trailer[1];
    body = text.slice(0, trailer.index);
  } else if (checksumRequired) {
    return { kind: 'corrupt' };
  }
  const code = body.slice(0, 2);
  const spec = REQUESTS[code];
  if (!spec) return { kind: 'unknown', code };
  const fixed: string[] = [];
  let at = 2;
  for (const width of spec.fixed) {
    fixed.push(body.slice(at, at + width));
    at += width;
  }
  if (body.length < at) return { kind: 'unknown', code };
  const fields = new Map<string, string>();
  for (const piece of body.slice(at).split('|')) {
    if (piece.length < 2) continue;
    const tag = piece.slice(0, 2);
    if (!fields.has(tag)) fields.set(tag, piece.slice(2));
  }
  return { kind: 'request', request: { code, fixed, fields, sequence } };
}

/** An answer's variable field: its tag and value (left out when the value is `undefined`). */
export type Field = readonly [tag: string, value: string | number | undefined];

/** A value as a field may carry it: no `|`, carriage return or line feed (each becomes a space). */
export function fieldValue(value: string | number): string {
  return String(value).replace(/[|\r\n]/g, ' ');
}

/** An answer's text without its trailer: code, fixed fields, then each variable field ended by `|`. */
export function answerText(code: string, fixed: readonly string[], fields: readonly Field[]): string {
  let text = code + fixed.join('');
  for (const [tag, value] of fields) if (value !== undefined) text += `${tag}${fieldValue(value)}|`;
  return text;
}

/**
 * The bytes of an answer in the terminal's character set, ended by a carriage return; with error detection,
 * the request's sequence number (AY, when it had one) and the checksum (AZ) last.
 */
export function answerBytes(
  text: string,
  encode: (text: string) => Buffer,
  errorDetection: { sequence: string | undefined } | undefined,
): Buffer {
  if (!errorDetection) return Buffer.concat([encode(text), CR]);
  const sequenced = errorDetection.sequence === undefined ? text : `${text}AY${errorDetection.sequence}`;
  const body = Buffer.concat([encode(sequenced), AZ]);
  return Buffer.concat([body, Buffer.from(checksum(body), 'ascii'), CR]);
}

const AZ = Buffer.from('AZ', 'ascii');
const CR = Buffer.from('\r', 'ascii');
