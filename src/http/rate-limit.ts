/**
 * @module Per-caller limits on searches, unpaginated streams and writes, announced with the `RateLimit`
 * fields and refused with 429 + `Retry-After`. Kept per process: they guard a process's own resources.
 */
import type { Context } from 'hono';
import { CatalogueError } from '../domain/errors.js';
import type { AppEnv } from './env.js';

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

/** 429: the caller has spent a limit; `Retry-After` says when the window turns. */
export class TooManyRequests extends CatalogueError {
  constructor(kind: RateKind, policy: RatePolicy, retryAfter: number, headers: Record<string, string>) {
    super(
      429,
      `too many ${kind === 'search' ? 'searches' : `${kind}s`}: at most ${policy.limit} per ${policy.windowSeconds} s; ` +
        `try again in ${retryAfter} s`,
      undefined,
      { ...headers, 'Retry-After': String(retryAfter) },
    );
  }
}

interface Window {
  startedAt: number;
  used: number;
}

/** Above this many tracked callers, windows that have ended are swept out before adding another. */
const SWEEP_ABOVE = 10_000;

/** The limiter of one app: counts each caller's spending per kind. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Spends one unit of `kind` for the caller of this request: sets the `RateLimit` fields on the
   * response, or throws 429 when nothing is left.
   */
  spend(c: Context<AppEnv>, kind: RateKind): void {
    const policy = this.limits[kind];
    const key = `${kind}\u0000${callerKey(c)}`;
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= policy.windowSeconds * 1000) {
      if (!window && this.windows.size >= SWEEP_ABOVE) this.sweep(now);
      window = { startedAt: now, used: 0 };
      this.windows.set(key, window);
    }
    const reset = Math.max(1, Math.ceil((window.startedAt + policy.windowSeconds * 1000 - now) / 1000));
    const remaining = Math.max(0, policy.limit - window.used - 1);
    const headers = {
      'RateLimit-Policy': `"${kind}";q=${policy.limit};w=${policy.windowSeconds}`,
      RateLimit: `"${kind}";r=${window.used >= policy.limit ? 0 : remaining};t=${reset}`,
    };
    if (window.used >= policy.limit) throw new TooManyRequests(kind, policy, reset, headers);
    window.used++;
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      const kind = key.slice(0, key.indexOf('\u0000')) as RateKind;
      if (now - window.startedAt >= this.limits[kind].windowSeconds * 1000) this.windows.delete(key);
    }
  }
}

/** The signed-in user, or the client's address; in-process requests (tests) have no address. */
function callerKey(c: Context<AppEnv>): string {
  const caller = c.get('ctx')?.caller;
  if (caller?.kind === 'user') return `user:${caller.id}`;
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return `address:${incoming?.socket?.remoteAddress ?? 'local'}`;
}
