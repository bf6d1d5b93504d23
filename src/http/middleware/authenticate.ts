/**
 * @module Who is calling: `Authorization: Bearer <token>` names a user; no header means anonymous. A
 * header that names no valid token is refused (401) rather than treated as anonymous, so a revoked token
 * fails loudly. The token is hashed and looked up by its hash: no secret is compared in JavaScript, and
 * none is stored or logged.
 */
import type { MiddlewareHandler } from 'hono';
import { findCallerByTokenHash } from '../../db/queries/users.js';
import { Unauthorized } from '../../domain/errors.js';
import { anonymous, authorize, type Caller, type Policy } from '../../domain/policy.js';
import { hashTokenSecret } from '../../domain/token.js';
import type { Uris } from '../../hypermedia/uris.js';
import type { AppEnv } from '../env.js';

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

export function authenticate(options: { uris: Uris; policy: Policy }): MiddlewareHandler<AppEnv> {
  const { uris, policy } = options;
  return async function identifyCaller(c, next) {
    const caller = await callerOf(c.req.header('authorization'), c.get('database').db);
    c.set('ctx', { uris, caller, policy });
    // Everything past this point is the catalogue itself: readable by anyone unless the operator closed it.
    authorize(policy.read(caller));
    await next();
  };
}

async function callerOf(header: string | undefined, db: Parameters<typeof findCallerByTokenHash>[0]): Promise<Caller> {
  if (header === undefined) return anonymous;
  const secret = BEARER.exec(header)?.[1];
  if (!secret) throw new Unauthorized('the Authorization header must be "Bearer <token>"');
  const caller = await findCallerByTokenHash(db, { hash: hashTokenSecret(secret) });
  if (!caller) throw new Unauthorized('the bearer token is not valid (unknown or revoked)');
  return caller;
}
