/**
 * @module Every write spends from the caller's write limit (see `rate-limit.ts`) before its route runs, so
 * a refused write changes nothing. Reads of single documents are cheap and never limited.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function limitWrites(): MiddlewareHandler<AppEnv> {
  return async function spendWriteLimit(c, next) {
    if (!SAFE.has(c.req.method)) c.get('rateLimiter')?.spend(c, 'write');
    await next();
  };
}
