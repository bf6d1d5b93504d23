/**
 * @module Rate limits as a policy: the kinds of expensive work a caller's quota is kept for, and how much
 * of each a caller may do per window. Configuration sets them; the HTTP limiter enforces them.
 */

/** One kind of expensive work and how much of it a caller may do per window. */
export interface RatePolicy {
  /** Quota per window. */
  limit: number;
  windowSeconds: number;
}

export type RateKind = 'search' | 'stream' | 'write';

export type RateLimits = Readonly<Record<RateKind, RatePolicy>>;

/** Generous for people and well-behaved scripts; a tight loop or a scraper meets them within a minute. */
export const defaultRateLimits: RateLimits = {
  search: { limit: 120, windowSeconds: 60 },
  stream: { limit: 20, windowSeconds: 60 },
  write: { limit: 120, windowSeconds: 60 },
};
