/**
 * @module Who is calling: `Authorization: Bearer <token>` names a user; so does the session cookie a
 * browser got by signing in; neither means anonymous. A header that names no valid token is refused
 * (401) rather than treated as anonymous, so a revoked token fails loudly; a stale cookie is dropped.
 * Tokens are hashed and looked up by their hash: no secret is compared in JavaScript, stored or logged.
 * Who a hash belongs to is remembered between requests (`CallerCache`), kept true by the database.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { CallerCache } from '../../db/callers.js';
import { Forbidden, Unauthorized } from '../../domain/errors.js';
import { anonymous, type Caller, type Policy } from '../../domain/policy.js';
import { SESSION_COOKIE } from '../../domain/session.js';
import { hashTokenSecret } from '../../domain/token.js';
import type { Uris } from '../../hypermedia/uris.js';
import type { AppEnv } from '../env.js';

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

export function authenticate(options: { uris: Uris; policy: Policy; callers: CallerCache }): MiddlewareHandler<AppEnv> {
  const { uris, policy, callers } = options;
  return async function identifyCaller(c, next) {
    const caller = await callerOf(c, callers);
    const safe = isSafe(c.req.method);
    if (caller.kind === 'user' && caller.via === 'session' && !safe) refuseCrossSite(c);
    c.set('ctx', { uris, caller, policy });
    // Whether the caller may read the catalogue is each route's question (`route`), like every other rule.
    if (safe) return next();
    try {
      await next();
    } finally {
      // A write here may have changed a caller (a loan, a role, a revoked token). The database tells every
      // process, this one too, but the client's next request could come before the notification does.
      callers.forgetAll();
    }
  };
}

async function callerOf(c: Context<AppEnv>, callers: CallerCache): Promise<Caller> {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const secret = BEARER.exec(header)?.[1];
    if (!secret) throw new Unauthorized('the Authorization header must be "Bearer <token>"');
    const caller = await callers.find(hashTokenSecret(secret));
    if (!caller) throw new Unauthorized('the bearer token is not valid (unknown or revoked)');
    return { ...caller, via: 'bearer' };
  }
  const session = getCookie(c, SESSION_COOKIE);
  if (session === undefined) return anonymous;
  const caller = /^[\x21-\x7e]{1,512}$/.test(session) ? await callers.find(hashTokenSecret(session)) : undefined;
  if (!caller) {
    // The token behind the session was revoked: the browser is simply signed out.
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return anonymous;
  }
  return { ...caller, via: 'session' };
}

function isSafe(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * A cookie rides along with requests other sites make the browser send; a write authenticated by one
 * must come from this site. Browsers say where a request comes from in `Sec-Fetch-Site` (or, older
 * ones, `Origin`); a request with neither is not a browser's.
 */
export function refuseCrossSite(c: Context): void {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return;
    throw new Forbidden('cross-site requests may not use this browser session');
  }
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  const host = c.req.header('host');
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = undefined;
  }
  if (host === undefined || originHost !== host) {
    throw new Forbidden('cross-site requests may not use this browser session');
  }
}
