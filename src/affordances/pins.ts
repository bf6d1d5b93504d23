/**
 * @module The controls of a user's PIN: setting it (a librarian's reset, or a patron's change of their own),
 * removing it, and clearing its card's lock (librarians).
 */
import { pinInputFields } from '../domain/pin.js';
import type { PatronContact, PinRecord, User } from '../domain/user.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { inputFields } from './fields.js';

/** Whom a PIN is set for: the user, and whether they have one to replace. */
export type PinSubject = Pick<User, 'id'> & Pick<PatronContact, 'pin_set'>;

export const setPin = affordance({
  name: 'set-pin',
  path: paths.userPin,
  summary:
    'Set the PIN a user signs in with by library card; a patron changing their own sends the current one too; answers the user',
  body: { fields: pinInputFields, mode: 'create' },
  status: 200,
  errors: [403, 409, 429],
  title: (user: PinSubject) => (user.pin_set ? 'Change PIN' : 'Set PIN'),
  appears: 'on a user, for that user and librarians',
  allows: ({ policy, caller }, user: PinSubject) => policy.setPin(caller, user.id),
  href: ({ uris }, user) => uris.userPin(user.id),
  // The current PIN is asked for exactly when the request would be refused without it.
  fields: ({ policy, caller }, user) =>
    policy.pinChangeNeedsCurrent(caller, user)
      ? inputFields(pinInputFields, { required: ['current_pin'] })
      : inputFields(pinInputFields.filter((field) => field.name !== 'current_pin')),
});

export const removePin = affordance({
  name: 'remove-pin',
  path: paths.userPin,
  summary: 'Remove a user\u2019s PIN (librarians): their card signs in no more until one is set; answers the user',
  status: 200,
  errors: [403, 409],
  title: 'Remove PIN',
  appears: 'on a user with a PIN, for librarians',
  allows: ({ policy, caller }, user: PinSubject) => policy.removePin(caller, user),
  href: ({ uris }, user) => uris.userPin(user.id),
});

/** A card's wrong PINs as stored, on its user. */
export type LockedCard = Pick<User, 'id'> & PinRecord;

export const unlockPin = affordance({
  name: 'unlock-pin',
  path: paths.userPinLock,
  summary: 'Clear a card\u2019s lock and its wrong PINs counted (librarians); answers the user',
  status: 200,
  errors: [403, 409],
  title: 'Unlock card',
  appears: 'on a user whose card is locked or has wrong PINs counted, for librarians',
  allows: ({ policy, caller }, user: LockedCard) => policy.unlockPin(caller, user),
  href: ({ uris }, user) => uris.userPinLock(user.id),
});
