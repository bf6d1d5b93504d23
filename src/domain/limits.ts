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

/** Items per page when a listing asks for paging without naming `per_page`. */
export const DEFAULT_PER_PAGE = 20;
/** Largest `per_page` accepted. */
export const MAX_PER_PAGE = 100;
/** Largest PostgreSQL `integer`: every id lives below it, and no parameter may overflow a query. */
export const INT4_MAX = 2_147_483_647;
/** Largest `page` accepted; keeps offsets inside what PostgreSQL and JavaScript count exactly. */
export const MAX_PAGE = INT4_MAX;
/** Largest request body, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Longest value of a free-text listing parameter (`query`, `author`, a `filter` value). */
export const MAX_QUERY_PARAM_LENGTH = 500;
