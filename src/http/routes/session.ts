/**
 * @module Browser sessions: signing in exchanges a library card and PIN, or a token, for a new token of the
 * same user in an HttpOnly, SameSite=Strict cookie, so a person never handles a token; signing out revokes
 * that one.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { signIn, signOut } from '../../affordances/session.js';
import { type PinCheck, tryPin } from '../../db/pin-check.js';
import { findCardSignIn } from '../../db/queries/pins.js';
import { deleteTokenByHash, insertToken } from '../../db/queries/tokens.js';
import { findCallerByTokenHash } from '../../db/queries/users.js';
import { Unauthorized } from '../../domain/errors.js';
import { type PinLockout, verifyNothing } from '../../domain/pin.js';
import { anonymous } from '../../domain/policy.js';
import { CARD_SIGN_IN_REFUSED, credentialsOf, SESSION_COOKIE, SESSION_TOKEN_NAME } from '../../domain/session.js';
import { hashTokenSecret, newTokenSecret } from '../../domain/token.js';
import { paths } from '../../hypermedia/uris.js';
import { tokenInvalidates } from '../../renderers/invalidations.js';
import { renderRoot } from '../../renderers/root.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { refuseCrossSite } from '../middleware/authenticate.js';
import { send } from '../respond.js';
import { route } from '../route.js';

export function sessionRoutes(app: Hono<AppEnv>, options: { pins: PinLockout }): void {
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
        const credentials = credentialsOf(signIn.validate(await readJson(c)));
        const { db } = c.get('database');
        const byToken =
          credentials.kind === 'token'
            ? await findCallerByTokenHash(db, { hash: hashTokenSecret(credentials.token) })
            : undefined;
        const userId =
          credentials.kind === 'token'
            ? byToken?.id
            : await cardHolder({ db, clock: c.get('clock'), lockout: options.pins }, credentials);
        if (userId === undefined) {
          throw new Unauthorized(
            credentials.kind === 'card' ? CARD_SIGN_IN_REFUSED : 'that token is not valid (unknown or revoked)',
          );
        }
        const session = newTokenSecret();
        const hash = hashTokenSecret(session);
        await insertToken(db, { userId, name: SESSION_TOKEN_NAME, hash });
        // A card's holder is read through the session's own token, as every later request of this browser is.
        const caller = byToken ?? (await findCallerByTokenHash(db, { hash }));
        if (!caller) throw new Unauthorized('that user is no longer there');
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

/** The user whose card and PIN these are, or `undefined` (no such card, no PIN, a wrong one: not told apart). */
async function cardHolder(check: PinCheck, credentials: { cardNumber: string; pin: string }) {
  const card = await findCardSignIn(check.db, { cardNumber: credentials.cardNumber });
  if (!card) return verifyNothing(credentials.pin).then(() => undefined);
  return (await tryPin(check, card, credentials.pin)) ? card.userId : undefined;
}

function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.get('uris').root().startsWith('https:');
}
