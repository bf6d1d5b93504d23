/**
 * @module Bounds of the catalogue's data and listings. The database checks, the controls' field
 * constraints, the validators and the docs all read these numbers, so they cannot drift apart.
 */

/** Earliest publication year accepted (clay tablets are rare in lending libraries). */
export const YEAR_MIN = -3000;
/** Latest publication year accepted: forthcoming books are catalogued a little ahead of time. */
export const YEAR_MAX = 2100;
/** Longest book title, in characters. */
export const TITLE_MAX_LENGTH = 500;
/** Longest author name, in characters. */
export const NAME_MAX_LENGTH = 200;
/** Longest publisher's name, in characters: as long as an author's. */
export const PUBLISHER_MAX_LENGTH = 200;
/**
 * Most subject headings of one book. A catalogue record rarely has more than ten (MARC 650s); twenty leaves
 * room and keeps a record, and the facets counting them, bounded.
 */
export const SUBJECTS_MAX = 20;
/**
 * Longest subject heading, in characters: room for a heading with its subdivisions ("World War,
 * 1939-1945 -- Campaigns -- France -- Normandy -- Fiction").
 */
export const SUBJECT_MAX_LENGTH = 200;

/** A copy's barcode: library barcodes are 8–14 characters; room for any scheme, bounded like every text. */
export const BARCODE_MAX_LENGTH = 64;
/** A library card's number: a barcode too, bounded the same way. */
export const CARD_NUMBER_MAX_LENGTH = 64;
/** An email address: RFC 5321's limit on a forward path. */
export const EMAIL_MAX_LENGTH = 254;
/** A language tag (BCP 47), e.g. `en`, `fr-CA`: the longest registered tags fit with room to spare. */
export const LANGUAGE_TAG_MAX_LENGTH = 35;

/** Items per page when a listing asks for paging without naming `per_page`. */
export const DEFAULT_PER_PAGE = 20;
/**
 * Up to this many matching items, a filtered or searched listing's total is counted exactly and an
 * unsorted search is ordered by relevance; beyond it the total is a marked estimate and the search is
 * in id order (its exact matches first), so neither costs in proportion to the catalogue (docs/api.md,
 * "Listing").
 */
export const EXACT_COUNT_LIMIT = 1000;

/**
 * Items a `page=N` jump may skip by reading them (an OFFSET): every page of a 10,000-item listing, at
 * any page size. Deeper, a listing of a whole collection in id or publication year order finds its page
 * from counters per range; any other order answers 400 saying how to reach the page by cursor.
 */
export const PAGE_JUMP_LIMIT = 10_000;
/** Largest `per_page` accepted. */
export const MAX_PER_PAGE = 100;
/** Largest PostgreSQL `integer`: every id lives below it, and no parameter may overflow a query. */
export const INT4_MAX = 2_147_483_647;

/** An id written as text: a positive whole number, no sign or leading zero, within `INT4_MAX`; else `undefined`. */
export function idOf(text: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= INT4_MAX ? Number(text) : undefined;
}
/** Largest `page` accepted; keeps offsets inside what PostgreSQL and JavaScript count exactly. */
export const MAX_PAGE = INT4_MAX;
/** Largest request body, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Longest value of a free-text listing parameter (`query`, `author`, a `filter` value). */
export const MAX_QUERY_PARAM_LENGTH = 500;
/** Most words in a search (`query`): every word must match, and each costs an index lookup. */
export const MAX_SEARCH_WORDS = 16;

/**
 * Time budget of one SQL statement on a PostgreSQL server, in milliseconds: a statement that runs longer
 * is cancelled and the request answered 503 with `Retry-After`, so no search or listing can occupy a
 * connection (and the requests queued behind it) for long.
 */
export const STATEMENT_TIME_BUDGET_MS = 5_000;

/** Seconds to wait for a new database connection before the request is answered 503. */
export const CONNECT_TIMEOUT_SECONDS = 1;

/** `/health` answers within this many milliseconds, 503 if the database has not answered by then. */
export const HEALTH_DEADLINE_MS = 800;

/**
 * Listing reads (pages, searches, the batches of a stream) that may run at once; the others wait their
 * turn, so single documents, writes and /health always find the database free soon. PGlite runs one
 * statement at a time on the server's own thread, so there one listing read at a time lets every other
 * request in between; a PostgreSQL pool of 10 keeps 4 connections for everything else.
 */
export const LISTING_READS_AT_ONCE = { pglite: 1, postgres: 6 } as const;
/**
 * Longest wait for a turn to read a listing, in milliseconds: past it the request is answered 503 with
 * `Retry-After` (the catalogue is busy), so a crowd of searches queues for a bounded time, never forever.
 */
export const LISTING_WAIT_BUDGET_MS = 3_000;

/** Most tokens one user holds, browser sessions included (enforced by the database, migration 0006). */
export const MAX_TOKENS_PER_USER = 100;
