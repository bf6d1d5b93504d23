/**
 * @module `PUT /users/{id}/pin`: a librarian sets or resets a user's PIN; a patron changes their own,
 * proving the current one (tried like a sign-in, so it counts towards the lockout). Setting a PIN lifts a
 * lockout. The PIN is hashed before it reaches the database, and is never answered or logged.
 */
import type { Hono } from 'hono';
import { setPin } from '../../affordances/pins.js';
import { findCardSignIn, storePin } from '../../db/queries/pins.js';
import { findUser } from '../../db/queries/users.js';
import { Conflict, Forbidden, InvalidInput } from '../../domain/errors.js';
import { checkNewPin, hashPin, type PinLockout } from '../../domain/pin.js';
import { paths } from '../../hypermedia/uris.js';
import { userInvalidates } from '../../renderers/invalidations.js';
import { renderUser } from '../../renderers/user.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { tryPin } from '../pin-check.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

export function pinRoutes(app: Hono<AppEnv>, options: { pins: PinLockout }): void {
  route(
    app,
    paths.userPin,
    { PUT: setPin },
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
        // The PIN the write replaces: none, while there is none (a first PIN); any, for a librarian's reset.
        let currentHash: string | null | undefined = user.pin_set ? undefined : null;
        if (ctx.policy.pinChangeNeedsCurrent(ctx.caller, user)) {
          if (input.current_pin === undefined) {
            throw new InvalidInput('invalid request body: current_pin is required to change your own PIN', {
              current_pin: 'is required to change your own PIN',
            });
          }
          const card = await findCardSignIn(db, { userId: id });
          const check = { db, clock: c.get('clock'), lockout: options.pins };
          if (!card || !(await tryPin(check, card, input.current_pin))) {
            throw new Forbidden('current_pin is not your PIN');
          }
          currentHash = card.pinHash;
        }
        // Hashed before the write, whose condition (the PIN proven is still the PIN) keeps a race honest.
        if (!(await storePin(db, { userId: id, pinHash: await hashPin(input.pin), currentHash }))) {
          throw new Conflict('the PIN was changed meanwhile; try again with the PIN now set');
        }
        const changed = await findUser(db, { id });
        if (!changed) throw notFound('user', id);
        return send(c, renderUser(changed, ctx), {
          headers: { 'Content-Location': ctx.uris.user(id) },
          invalidates: userInvalidates(ctx.uris),
        });
      },
    },
  );
}
