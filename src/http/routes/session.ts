/**
 * @module Browser sessions: signing in exchanges a token for a new token of the same user in an HttpOnly,
 * SameSite=Strict cookie, so a person never handles the token again; signing out revokes that one.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { signIn, signOut } from '../../affordances/session.js';
import { deleteTokenByHash, insertToken } from '../../db/queries/tokens.js';
import { findCallerByTokenHash } from '../../db/queries/users.js';
import { Unauthorized } from '../../domain/errors.js';
import { anonymous } from '../../domain/policy.js';
import { SESSION_COOKIE, SESSION_TOKEN_NAME } from '../../domain/session.js';
import { hashTokenSecret, newTokenSecret } from '../../domain/token.js';
import { paths } from '../../hypermedia/uris.js';
import { tokenInvalidates } from '../../renderers/invalidations.js';
import { renderRoot } from '../../renderers/root.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { refuseCrossSite } from '../middleware/authenticate.js';
import { send } from '../respond.js';
import { route } from '../route.js';

export function sessionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.session,
    { POST: signIn, DELETE: signOut },
    {
      /** Answers the root as the newly signed-in caller sees it. */
      async POST(c) {
        const ctx = c.get('ctx');
        // Signing a browser in from another site would sign it in as someone else's account.
        refuseCrossSite(c);
        signIn.authorize(ctx, undefined);
        const { token } = signIn.validate(await readJson(c));
        const caller = await findCallerByTokenHash(c.get('database').db, { hash: hashTokenSecret(token) });
        if (!caller) throw new Unauthorized('that token is not valid (unknown or revoked)');
        const session = newTokenSecret();
        await insertToken(c.get('database').db, {
          userId: caller.id,
          name: SESSION_TOKEN_NAME,
          hash: hashTokenSecret(session),
        });
        setCookie(c, SESSION_COOKIE, session, {
          path: '/',
          httpOnly: true,
          sameSite: 'Strict',
          secure: isHttps(c),
        });
        return send(c, renderRoot({ ...ctx, caller: { ...caller, via: 'session' } }), {
          headers: { 'Content-Location': ctx.uris.root() },
          invalidates: tokenInvalidates(ctx.uris, caller.id),
        });
      },
      /** Answers the root as an anonymous caller sees it. */
      async DELETE(c) {
        const ctx = c.get('ctx');
        signOut.authorize(ctx, undefined);
        const session = getCookie(c, SESSION_COOKIE);
        if (session) await deleteTokenByHash(c.get('database').db, { hash: hashTokenSecret(session) });
        deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
        return send(c, renderRoot({ ...ctx, caller: anonymous }), {
          headers: { 'Content-Location': ctx.uris.root() },
          ...(ctx.caller.kind === 'user' && { invalidates: tokenInvalidates(ctx.uris, ctx.caller.id) }),
        });
      },
    },
  );
}

function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.get('uris').root().startsWith('https:');
}
