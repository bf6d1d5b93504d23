/**
 * @module Recognises PostgreSQL errors raised by constraints, whichever driver reported them (postgres.js
 * and PGlite name the fields differently, and drizzle may wrap them in a `cause`).
 */

export interface ConstraintViolation {
  /** SQLSTATE: 23503 foreign key, 23514 check, 23505 unique. */
  code: string;
  constraint: string | undefined;
}

export function constraintViolation(error: unknown): ConstraintViolation | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, constraint_name } = e as Record<string, unknown>;
    if (typeof code === 'string' && code.startsWith('23')) {
      const name = typeof constraint === 'string' ? constraint : constraint_name;
      return { code, constraint: typeof name === 'string' ? name : undefined };
    }
  }
  return undefined;
}

export const FOREIGN_KEY_VIOLATION = '23503';
/** A foreign key declared `ON DELETE RESTRICT` refuses with this code rather than 23503. */
export const RESTRICT_VIOLATION = '23001';
export const CHECK_VIOLATION = '23514';

/** Why a database error means "not now" rather than "wrong": the 503 cases. */
export type Unavailability = 'unreachable' | 'read-only' | 'over-budget' | 'contended';

/**
 * Recognises errors that say the database cannot be used now, rather than that the request is wrong:
 * no connection (refused, reset, timed out, closed; SQLSTATE class 08), a server shutting down or
 * starting up (57P01–57P03), too many connections (53300), a statement cancelled by its time budget
 * (57014), a transaction rolled back for another's sake (deadlock 40P01, serialization failure 40001), or
 * a write refused by a server that takes none (25006: a standby, or a primary during a failover). postgres.js
 * reports socket errors by their Node code, PostgreSQL errors by SQLSTATE.
 */
export function databaseUnavailability(error: unknown): Unavailability | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code === QUERY_CANCELED) return 'over-budget';
    // The database gave up on this transaction so that another could finish: the same request can succeed.
    if (code === DEADLOCK_DETECTED || code === SERIALIZATION_FAILURE) return 'contended';
    // The session is on a server that takes no writes now; the driver closes it, and the next one is
    // opened on whichever host accepts writes (patches/postgres+*.patch).
    if (code === READ_ONLY_SQL_TRANSACTION) return 'read-only';
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08')) return 'unreachable';
  }
  return undefined;
}

const QUERY_CANCELED = '57014';
const DEADLOCK_DETECTED = '40P01';
const SERIALIZATION_FAILURE = '40001';
/** SQLSTATE of a write refused by a server that takes none: a standby, or a primary being failed over. */
const READ_ONLY_SQL_TRANSACTION = '25006';

/** The driver's code (SQLSTATE or socket error), the only detail of a database error worth a log line. */
export function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
