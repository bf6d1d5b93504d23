/**
 * @module The change feed's events and its cursor. An event says what happened to which book, author or
 * loan, numbered in commit order; the cursor names the last event a reader has seen, opaque to clients
 * (base64url), and is what `next` links, an event stream's `id:` and `Last-Event-ID` carry.
 */
import { InvalidInput } from './errors.js';
import { MAX_PER_PAGE } from './limits.js';

/** What can happen, per kind of resource. */
export const changeTypes = [
  'book.created',
  'book.updated',
  'book.deleted',
  'author.created',
  'author.updated',
  'author.deleted',
  'loan.started',
  'loan.ended',
  'loan.renewed',
  'copy.added',
  'copy.withdrawn',
  'copy.sent',
  'copy.received',
  'hold.placed',
  'hold.in_transit',
  'hold.ready',
  'hold.ended',
  'branch.closed',
  'branch.reopened',
] as const;
export type ChangeType = (typeof changeTypes)[number];

/** The kind of resource an event is about: the part of its type before the dot. */
export type ChangeKind = 'book' | 'author' | 'loan' | 'copy' | 'hold' | 'branch';

/** One event of the feed. */
export interface Change {
  /** Its number: stable, and increasing in the order the changes committed (with gaps). */
  id: number;
  type: ChangeType;
  /** The book's, author's, loan's, copy's or hold's id. */
  resource_id: number;
  /** When it was recorded, ISO 8601 in UTC. */
  at: string;
}

export function changeKind(type: ChangeType): ChangeKind {
  return type.slice(0, type.indexOf('.')) as ChangeKind;
}

/** Where the feed begins: what retention has kept. */
export interface FeedHorizon {
  /** Events numbered up to this were pruned; a cursor below it cannot be followed (410). */
  prunedThrough: number;
  /** Every event recorded since this moment is in the feed (ISO 8601, UTC). */
  beginsAt: string;
}

/** Events per page when `per_page` is not given. */
export const DEFAULT_CHANGES_PER_PAGE = MAX_PER_PAGE;

const CURSOR_PREFIX = 'c1.';
const MAX_CURSOR_LENGTH = 64;

/** The cursor after event `id` (0: before every event). */
export function encodeChangeCursor(id: number): string {
  return Buffer.from(CURSOR_PREFIX + id).toString('base64url');
}

/**
 * The event number a cursor names; 400 naming `source` (`cursor` or `Last-Event-ID`) for anything this
 * feed did not make.
 */
export function decodeChangeCursor(text: string, source: 'cursor' | 'Last-Event-ID'): number {
  const decoded =
    text.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(text)
      ? Buffer.from(text, 'base64url').toString('utf8')
      : '';
  const digits = decoded.startsWith(CURSOR_PREFIX) ? decoded.slice(CURSOR_PREFIX.length) : '';
  const id = /^(0|[1-9]\d{0,15})$/.test(digits) ? Number(digits) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    const problem = 'is not a cursor of this feed; follow the feed\u2019s links as given';
    throw new InvalidInput(`${source === 'cursor' ? 'query parameter "cursor"' : 'Last-Event-ID'} ${problem}`, {
      [source]: problem,
    });
  }
  return id;
}

/**
 * Where a read without a cursor starts: `oldest`, the first event kept (a mirror reads everything), or
 * `now`, after the newest event (a live view wants only what happens from here on).
 */
export type FeedStart = 'oldest' | 'now';
export const feedStarts: readonly FeedStart[] = ['oldest', 'now'];

/** What a request for the feed asked: where to start, and how many events per page. */
export interface ChangesQuery {
  /** The cursor as given, if any. */
  cursor?: string;
  /** The event it names (0: before the first event ever). */
  after?: number;
  /** Where to start when no cursor says: `from`, `oldest` by default. */
  from: FeedStart;
  perPage: number;
}

/**
 * Reads `cursor`, `from` and `per_page`; an event stream's `Last-Event-ID` (sent by a reconnecting client)
 * takes the place of the cursor and of `from`, so that an `EventSource` opened `?from=now` resumes where it
 * was. A cursor and `from` together, anything else, or a value given twice, is a 400 naming the parameter.
 */
export function parseChangesQuery(params: Record<string, string[]>, lastEventId?: string): ChangesQuery {
  for (const [name, values] of Object.entries(params)) {
    if (name !== 'cursor' && name !== 'from' && name !== 'per_page') {
      throw invalid(
        name,
        'is not a parameter of the change feed; accepted: cursor, from, per_page',
        'unknown parameter',
      );
    }
    if (values.length > 1) throw invalid(name, `"${name}" may be given only once`);
  }
  const perPageText = params.per_page?.[0];
  let perPage = DEFAULT_CHANGES_PER_PAGE;
  if (perPageText !== undefined) {
    perPage = /^\d{1,4}$/.test(perPageText) ? Number(perPageText) : 0;
    if (perPage < 1 || perPage > MAX_PER_PAGE) {
      throw invalid('per_page', `must be a whole number from 1 to ${MAX_PER_PAGE}`);
    }
  }
  const fromText = params.from?.[0];
  const from = fromText === undefined ? 'oldest' : feedStarts.find((start) => start === fromText);
  if (from === undefined) throw invalid('from', `must be one of: ${feedStarts.join(', ')}`);
  if (lastEventId !== undefined && lastEventId.trim() !== '') {
    const cursor = lastEventId.trim();
    return { cursor, after: decodeChangeCursor(cursor, 'Last-Event-ID'), from, perPage };
  }
  const cursor = params.cursor?.[0];
  if (cursor === undefined) return { from, perPage };
  if (fromText !== undefined) throw invalid('from', 'goes without "cursor": a cursor already says where to start');
  return { cursor, after: decodeChangeCursor(cursor, 'cursor'), from, perPage };
}

function invalid(parameter: string, problem: string, detail = problem): InvalidInput {
  return new InvalidInput(`query parameter "${parameter}" ${problem}`, { [parameter]: detail });
}
