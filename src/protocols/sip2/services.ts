/**
 * @module What every SIP2 answer is made with: the database, the business clock, the same policy the HTTP app
 * asks, the library's time zone and PIN lockout; and the terminal a connection has signed in as.
 */
import type { Db } from '../../db/client.js';
import { findCallerById } from '../../db/queries/users.js';
import type { Clock } from '../../domain/clock.js';
import { Forbidden, Unauthorized } from '../../domain/errors.js';
import type { PinLockout } from '../../domain/pin.js';
import type { Policy, SignedIn } from '../../domain/policy.js';
import type { Sip2Terminal } from '../../domain/sip2-terminal.js';
import type { Logger } from '../../log.js';

export interface Services {
  db: Db;
  clock: Clock;
  policy: Policy;
  /** The library's time zone: SIP2 dates are written in it, due dates run by its days. */
  timeZone: string;
  pins: PinLockout;
  log: Logger;
}

/** What a connection knows while it answers: the terminal signed in, if any. */
export interface Session {
  terminal: Sip2Terminal | undefined;
}

/** The refusal of every transaction before a 93 login succeeded. */
export const notSignedIn = () => new Unauthorized('this terminal has not signed in: send a 93 login first');

/** The terminal signed in, or the refusal to act before a login. */
export function signedInTerminal(terminal: Sip2Terminal | undefined): Sip2Terminal {
  if (!terminal) throw notSignedIn();
  return terminal;
}

/** The librarian the terminal acts as, read now: their rights as they stand (a demoted one has no desk). */
export async function actingCaller(services: Services, terminal: Sip2Terminal): Promise<SignedIn> {
  const caller = await findCallerById(services.db, { id: terminal.userId });
  if (!caller) throw new Forbidden(`the user terminal ${terminal.login} acts as no longer exists`);
  return caller;
}
