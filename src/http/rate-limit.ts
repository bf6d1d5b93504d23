/**
 * @module Per-caller limits on searches, unpaginated streams and writes, announced with the `RateLimit`
 * fields and refused with 429 + `Retry-After`. Counted where a `QuotaCounter` keeps them: in the database,
 * shared by every process on it, or in this process alone.
 */
import type { Context } from 'hono';
import { CatalogueError } from '../domain/errors.js';
import type { Caller } from '../domain/policy.js';
import type { RateKind, RateLimits, RatePolicy } from '../domain/rate-limits.js';
import { ProcessQuotaCounter, type QuotaCounter } from './quota-counter.js';

/**
 * What the limiter reads of a request's context: who is calling, as authentication set it. Any app's
 * context that carries the caller will do, so that the limiter does not depend on the app's whole `AppEnv`.
 */
interface CallerEnv {
  Variables: { ctx: { caller: Caller } };
}

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

/** The limiter of one app: counts each caller's spending per kind, where `counter` keeps it. */
export class RateLimiter {
  constructor(
    readonly limits: RateLimits,
    private readonly counter: QuotaCounter = new ProcessQuotaCounter(),
  ) {}

  /**
   * Spends one unit of `kind` for the caller of this request: sets the `RateLimit` fields on the
   * response, or throws 429 when nothing is left.
   */
  async spend<E extends CallerEnv>(c: Context<E>, kind: RateKind): Promise<void> {
    const policy = this.limits[kind];
    const { used, resetSeconds } = await this.counter.count(callerKey(c), kind, policy);
    const headers = {
      'RateLimit-Policy': `"${kind}";q=${policy.limit};w=${policy.windowSeconds}`,
      RateLimit: `"${kind}";r=${Math.max(0, policy.limit - used)};t=${resetSeconds}`,
    };
    if (used > policy.limit) throw new TooManyRequests(kind, policy, resetSeconds, headers);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  }
}

/** The signed-in user, or the client's address; in-process requests (tests) have no address. */
function callerKey<E extends CallerEnv>(c: Context<E>): string {
  const caller = c.get('ctx')?.caller;
  if (caller?.kind === 'user') return `user:${caller.id}`;
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return `address:${incoming?.socket?.remoteAddress ?? 'local'}`;
}
