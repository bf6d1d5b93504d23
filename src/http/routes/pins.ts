/**
 * @module `PUT /users/{id}/pin`: a librarian sets or resets a user's PIN; a patron changes their own,
 * proving the current one (tried like a sign-in, so it counts towards the lockout). Setting a PIN lifts a
 * lockout. The PIN is hashed before it reaches the database, and is never answered or logged. `DELETE` of it
 * removes it, and `DELETE /users/{id}/pin/lock` clears a card's lock (librarians). Each answers the user.
 */
import type { Context, Hono } from 'hono';
import { removePin, setPin, unlockPin } from '../../affordances/pins.js';
import { proveCurrentPin } from '../../db/pin-check.js';
import { clearPinLock, removePin as deletePin, storePin } from '../../db/queries/pins.js';
import { findUser } from '../../db/queries/users.js';
import { Conflict } from '../../domain/errors.js';
import { checkNewPin, hashPin, type PinLockout } from '../../domain/pin.js';
import { paths } from '../../hypermedia/uris.js';
import { userInvalidates } from '../../renderers/invalidations.js';
import { renderUser } from '../../renderers/user.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

export function pinRoutes(app: Hono<AppEnv>, options: { pins: PinLockout }): void {
  route(
    app,
    paths.userPin,
    { PUT: setPin, DELETE: removePin },
    {
      /** Answers the user, now with `pin_set: true`. */
      async PUT(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const id = idParam(c, 'id', 'user');
        const user = await findUser(db, { id });
        // Who may set it depends on whose it is; a user who is not there is told apart only to librarians.
        setPin.authorize(ctx, user ?? { id, pin_set: false });
        if (!user) throw notFound('user', id);
        const input = setPin.validate(await readJson(c));
        checkNewPin(input.pin);
        // The PIN the write replaces: the one proven; none, while there is none; any, for a librarian's reset.
        const currentHash = ctx.policy.pinChangeNeedsCurrent(ctx.caller, user)
          ? await proveCurrentPin({ db, clock: c.get('clock'), lockout: options.pins }, id, input.current_pin)
          : user.pin_set
            ? undefined
            : null;
        // Hashed before the write, whose condition (the PIN proven is still the PIN) keeps a race honest.
        if (!(await storePin(db, { userId: id, pinHash: await hashPin(input.pin), currentHash }))) {
          throw new Conflict('the PIN was changed meanwhile; try again with the PIN now set');
        }
        return answerUser(c, id);
      },
      /** Answers the user, now with `pin_set: false`. */
      async DELETE(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const id = idParam(c, 'id', 'user');
        const user = await findUser(db, { id });
        if (!user) {
          removePin.authorize(ctx, { id, pin_set: true });
          throw notFound('user', id);
        }
        removePin.authorize(ctx, user);
        // Conditional on a PIN being there: removed meanwhile, the fresh state says why not.
        if (!(await deletePin(db, { userId: id }))) removePin.authorize(ctx, { id, pin_set: false });
        return answerUser(c, id);
      },
    },
  );

  route(
    app,
    paths.userPinLock,
    { DELETE: unlockPin },
    {
      /** Answers the user, their card unlocked with no wrong PIN counted. */
      async DELETE(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const id = idParam(c, 'id', 'user');
        const user = await findUser(db, { id });
        unlockPin.authorize(ctx, user ?? { id, pin_failures: 1, pin_locked_until: null });
        if (!user || !(await clearPinLock(db, { userId: id }))) throw notFound('user', id);
        return answerUser(c, id);
      },
    },
  );
}

/** The user as a PIN's write left them, at their own URI, with the lock for a librarian. */
async function answerUser(c: Context<AppEnv>, id: number) {
  const ctx = c.get('ctx');
  const changed = await findUser(c.get('database').db, { id });
  if (!changed) throw notFound('user', id);
  return send(c, renderUser(changed, ctx), {
    headers: { 'Content-Location': ctx.uris.user(id) },
    invalidates: userInvalidates(ctx.uris),
  });
}
