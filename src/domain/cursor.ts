/**
 * @module Keyset cursors of paging links: which row a `next` or `prev` page starts from, which page
 * number that is, and which listing the cursor was made for. Encoded as base64url JSON; opaque to clients
 * and validated like any other input, since a client can send anything.
 */
import { InvalidInput } from './errors.js';
import { INT4_MAX, MAX_PAGE } from './limits.js';

/** A value of one order key: a sort field's value, a relevance rank, or an id. */
export type KeyValue = string | number;

export interface Cursor {
  /** The page number the cursor leads to: what `meta.page` says when it is followed. */
  page: number;
  /** `after`/`before` the boundary row, or the `last` page (read backwards from the end). */
  direction: 'after' | 'before' | 'last';
  /** The boundary row's order key values, id last; empty for `last`. */
  keys: KeyValue[];
  /** The listing is a search ordered by relevance (the first key is the rank), not by sort keys or id. */
  ranked: boolean;
  /** Fingerprint of the listing (filters, search, sort, per_page) the cursor belongs to. */
  fit: string;
}

/**
 * The type of each order key, in order; `rank` is a relevance score, `tier` whether a search past the
 * ranked limit names the item exactly (0) or not (1).
 */
export type KeyType = 'string' | 'integer' | 'rank' | 'tier';

const DIRECTIONS = ['after', 'before', 'last'] as const;
const MAX_CURSOR_LENGTH = 4096;
const MAX_KEY_TEXT = 1000;

export function encodeCursor(cursor: Cursor): string {
  const { page, direction, keys, ranked, fit } = cursor;
  return Buffer.from(JSON.stringify([page, direction[0], keys, ranked ? 1 : 0, fit])).toString('base64url');
}

/**
 * Reads a cursor and checks it against the listing it arrived with: the same fingerprint and, per order
 * key, a value of the key's type. Anything else is a 400 naming `cursor`.
 */
export function decodeCursor(
  text: string,
  expect: { fit: string; ranked: boolean; keyTypes: (ranked: boolean) => KeyType[] },
): Cursor {
  const cursor = text.length <= MAX_CURSOR_LENGTH ? parse(text) : undefined;
  if (!cursor) throw invalidCursor('is not a cursor this catalogue made; follow the paging links as given');
  if (cursor.fit !== expect.fit) {
    throw invalidCursor('belongs to another listing (its filters, search, sort or per_page differ)');
  }
  if (cursor.ranked && !expect.ranked) throw invalidCursor('does not fit the listing\u2019s order');
  const types = cursor.direction === 'last' ? [] : expect.keyTypes(cursor.ranked);
  if (cursor.keys.length !== types.length || !cursor.keys.every((value, i) => fits(value, types[i] as KeyType))) {
    throw invalidCursor('does not fit the listing\u2019s order');
  }
  return cursor;
}

/** A short fingerprint (FNV-1a, 32 bits) of a listing's canonical text: tells cursors of listings apart. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

function parse(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 5) return undefined;
  const [page, d, keys, ranked, fit] = value as unknown[];
  const direction = DIRECTIONS.find((name) => name[0] === d);
  if (!Number.isInteger(page) || (page as number) < 1 || (page as number) > MAX_PAGE || !direction) return undefined;
  if (!Array.isArray(keys) || (ranked !== 0 && ranked !== 1) || typeof fit !== 'string') return undefined;
  return { page: page as number, direction, keys, ranked: ranked === 1, fit };
}

function fits(value: unknown, type: KeyType): boolean {
  if (type === 'string') return typeof value === 'string' && value.length <= MAX_KEY_TEXT && !value.includes('\u0000');
  if (type === 'integer') return Number.isInteger(value) && Math.abs(value as number) <= INT4_MAX;
  if (type === 'tier') return value === 0 || value === 1;
  return typeof value === 'number' && Number.isFinite(value);
}

function invalidCursor(problem: string): InvalidInput {
  return new InvalidInput(`query parameter "cursor" ${problem}`, { cursor: problem });
}
