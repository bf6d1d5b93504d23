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
export const CHECK_VIOLATION = '23514';
