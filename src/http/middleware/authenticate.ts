/**
 * @module Who is calling: a bearer token or a browser's session cookie names a user, neither means anonymous,
 * and a token that names no one is refused (401). Tokens are looked up by hash, never compared or stored.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { CallerCache, KnownCaller } from '../../db/callers.js';
import { Forbidden, Unauthorized } from '../../domain/errors.js';
import { anonymous, type Caller, type Policy, type SignedIn } from '../../domain/policy.js';
import { SESSION_COOKIE } from '../../domain/session.js';
import { hashTokenSecret } from '../../domain/token.js';
import type { Uris } from '../../hypermedia/uris.js';
import type { AppEnv } from '../env.js';
import { isSafe } from '../methods.js';
import { withheldAskedFor } from './asking-why.js';

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

/** What authentication needs: the app's URI builder and policy, and the callers it remembers. */
export interface Authentication {
  uris: Uris;
  policy: Policy;
  callers: CallerCache;
}

/**
 * Sets `ctx` on `c`: who calls, with the URI builder and policy renderers need. At once for an anonymous
 * caller or a remembered token, in a promise when the database must be asked.
 */
export function authenticate(c: Context<AppEnv>, auth: Authentication): void | Promise<void> {
  const caller = callerOf(c, auth.callers);
  if (caller instanceof Promise) return caller.then((known) => identify(c, auth, known));
  identify(c, auth, caller);
}

function identify(c: Context<AppEnv>, { uris, policy }: Authentication, caller: Caller): void {
  if (caller.kind === 'user' && caller.via === 'session' && !isSafe(c.req.method)) refuseCrossSite(c);
  // Whether the caller may read the catalogue is each route's question (`route`), like every other rule.
  const withheld = withheldAskedFor(c.env);
  c.set('ctx', withheld ? { uris, caller, policy, withheld } : { uris, caller, policy });
}

function callerOf(c: Context<AppEnv>, callers: CallerCache): Caller | Promise<Caller> {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const secret = BEARER.exec(header)?.[1];
    if (!secret) throw new Unauthorized('the Authorization header must be "Bearer <token>"');
    return then(callers.find(hashTokenSecret(secret)), (caller) => {
      if (!caller) throw new Unauthorized('the bearer token is not valid (unknown or revoked)');
      return signedIn(caller, 'bearer');
    });
  }
  const session = getCookie(c, SESSION_COOKIE);
  if (session === undefined) return anonymous;
  const found = /^[\x21-\x7e]{1,512}$/.test(session) ? callers.find(hashTokenSecret(session)) : undefined;
  return then(found, (caller) => {
    if (!caller) {
      // The token behind the session was revoked: the browser is simply signed out.
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return anonymous;
    }
    return signedIn(caller, 'session');
  });
}

/**
 * The caller as this request proved them, written member by member so that every signed-in caller has one
 * object shape (a spread of the cached caller plus `via` would not).
 */
function signedIn(caller: KnownCaller, via: 'bearer' | 'session'): SignedIn {
  const { id, name, role, patronCategoryId, homeBranchId, activeLoans, openHolds, balance, loansByKind } = caller;
  return {
    kind: 'user',
    id,
    name,
    role,
    patronCategoryId,
    homeBranchId,
    activeLoans,
    openHolds,
    balance,
    loansByKind,
    via,
  };
}

/** `f` of a value that may still be coming: at once when it is here, in a promise when it is not. */
function then<T, U>(value: T | Promise<T>, f: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
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
