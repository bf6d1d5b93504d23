/** @module Rate limits in tests: the default quotas, and reading the IETF `RateLimit` field (`"search";r=2;t=60`). */
import { defaultConfig } from '../../src/config.js';
import type { RateLimits } from '../../src/domain/rate-limits.js';

/** The quotas an unset `CATALOGUE_RATE_LIMITS` gives, for tests that change one of them. */
export const defaultRateLimits: RateLimits = (() => {
  if (defaultConfig.rateLimits === false) throw new Error('rate limits are on by default');
  return defaultConfig.rateLimits;
})();

/** What the field says is left of the quota (its `r`), or undefined when there is no field or no `r`. */
export function quotaLeft(field: string | null | undefined): number | undefined {
  const left = /(?:^|;)r=(\d+)/.exec(field ?? '')?.[1];
  return left === undefined ? undefined : Number(left);
}
