/**
 * @module A PIN tried against a card: refused while the card is locked, counted when wrong (the wrong PIN
 * that reaches the limit locks it), the count started again when right. Card sign-in, a patron's change
 * of their own PIN and a SIP2 terminal's patron password (AD) all go through it, so none is a way around the
 * lockout.
 */

import type { Clock } from '../domain/clock.js';
import { Forbidden, InvalidInput, TooManyTries } from '../domain/errors.js';
import { type PinLockout, verifyNothing, verifyPin } from '../domain/pin.js';
import type { Db } from './client.js';
import { acceptRightPin, type CardSignIn, countWrongPin, findCardSignIn, type PinStep } from './queries/pins.js';

export interface PinCheck {
  db: Db;
  clock: Clock;
  lockout: PinLockout;
}

/**
 * Whether `pin` is the card's PIN; `false` for a card with none. Throws 429 with `Retry-After` while the
 * card is locked, right PIN or not, and when a concurrent wrong PIN locked it first.
 */
export async function tryPin(check: PinCheck, card: CardSignIn, pin: string): Promise<boolean> {
  const at = check.clock.now();
  refuseWhileLocked(card.lockedUntil, at);
  const { pinHash } = card;
  if (pinHash === null) return verifyNothing(pin);
  const right = await verifyPin(pin, pinHash);
  const params = { userId: card.userId, pinHash, at };
  const step: PinStep = right
    ? await acceptRightPin(check.db, params)
    : await countWrongPin(check.db, {
        ...params,
        attempts: check.lockout.attempts,
        lockedUntil: new Date(at.getTime() + check.lockout.lockoutMinutes * 60_000),
      });
  if (!step.done) {
    refuseWhileLocked(step.lockedUntil, at);
    // The PIN was changed while this one was checked: the one checked is no longer it.
    return false;
  }
  return right;
}

/**
 * The hash of the user's PIN, once `pin` proves it is theirs: what a patron's change of their own PIN
 * replaces. A missing `pin` is 400; a wrong one 403, counted like a sign-in's.
 */
export async function proveCurrentPin(check: PinCheck, userId: number, pin: string | undefined): Promise<string> {
  if (pin === undefined) {
    throw new InvalidInput('invalid request body: current_pin is required to change your own PIN', {
      current_pin: 'is required to change your own PIN',
    });
  }
  const card = await findCardSignIn(check.db, { userId });
  if (!card?.pinHash || !(await tryPin(check, card, pin))) throw new Forbidden('current_pin is not your PIN');
  return card.pinHash;
}

function refuseWhileLocked(lockedUntil: string | null, at: Date): void {
  if (lockedUntil === null) return;
  const ms = Date.parse(lockedUntil) - at.getTime();
  if (ms <= 0) return;
  const minutes = Math.ceil(ms / 60_000);
  throw new TooManyTries(
    `too many wrong PINs: this library card is locked for ${minutes} more minute${minutes === 1 ? '' : 's'}; ask at the desk to reset the PIN`,
    Math.ceil(ms / 1000),
  );
}
