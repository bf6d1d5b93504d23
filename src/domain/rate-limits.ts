/**
 * @module Rate limits as a policy: the kinds of expensive work a caller's quota is kept for, and how much
 * of each a caller may do per window. Configuration sets them (`CATALOGUE_RATE_LIMITS`); the HTTP limiter
 * enforces them.
 */

/** One kind of expensive work and how much of it a caller may do per window. */
export interface RatePolicy {
  /** Quota per window. */
  limit: number;
  windowSeconds: number;
}

export type RateKind = 'search' | 'stream' | 'write';

export type RateLimits = Readonly<Record<RateKind, RatePolicy>>;
