/**
 * @module A terminal's character set: how its bytes become text and an answer's text becomes bytes. UTF-8
 * (malformed bytes read as U+FFFD) and ISO-8859-1 (a character beyond it written as `?`).
 */
import type { Sip2Charset } from '../../domain/sip2-terminal.js';

export interface Charset {
  decode(bytes: Buffer): string;
  encode(text: string): Buffer;
}

const utf8: Charset = {
  decode: (bytes) => bytes.toString('utf8'),
  encode: (text) => Buffer.from(text, 'utf8'),
};

const latin1: Charset = {
  decode: (bytes) => bytes.toString('latin1'),
  // Node's latin1 keeps a code point's low byte: a character outside ISO-8859-1 would become another one.
  encode: (text) => Buffer.from(text.replace(/[\u{100}-\u{10ffff}]/gu, '?'), 'latin1'),
};

export function charsetOf(name: Sip2Charset): Charset {
  return name === 'iso-8859-1' ? latin1 : utf8;
}
