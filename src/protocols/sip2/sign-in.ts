/**
 * @module Signing a terminal in and what it asks of the ACS: 93 login → 94, 99 SC status → 98 (with the
 * supported messages), 35 end patron session → 36.
 */
import { findTerminalSignIn } from '../../db/queries/sip2.js';
import { verifyNothing, verifyPin } from '../../domain/pin.js';
import { field, now, yn } from './fields.js';
import { answerText, type Field, type Request } from './frame.js';
import { PROTOCOL_VERSION, SUPPORTED_MESSAGES } from './messages.js';
import type { Services, Session } from './services.js';

export async function login(services: Services, session: Session, request: Request): Promise<string> {
  const login = field(request, 'CN') ?? '';
  const password = field(request, 'CO') ?? '';
  const terminal = login ? await findTerminalSignIn(services.db, { login }) : undefined;
  // The same time spent for a login that does not exist: how long a refusal takes does not tell which it was.
  const right = terminal ? await verifyPin(password, terminal.passwordHash) : await verifyNothing(password);
  if (!terminal || !right) return '940';
  const { passwordHash: _, ...signedIn } = terminal;
  session.terminal = signedIn;
  return '941';
}

export function acsStatus(services: Services, session: Session): string {
  const online = session.terminal !== undefined;
  // on-line, checkin ok, checkout ok, ACS renewal policy, status update ok, off-line ok, timeout period,
  // retries allowed, date/time sync, protocol version.
  const fixed = [yn(online), yn(online), yn(online), 'Y', 'N', 'N', '030', '003', now(services), PROTOCOL_VERSION];
  return answerText('98', fixed, [
    ['AO', session.terminal?.institutionId ?? ''],
    ['AM', 'catalogue'],
    ['BX', SUPPORTED_MESSAGES],
    ...(online ? [] : ([['AF', 'this terminal has not signed in: send a 93 login first']] as Field[])),
  ]);
}

/** Ending a patron's session keeps nothing to end (a terminal holds no patron state): always Y once signed in. */
export function endSession(services: Services, session: Session, request: Request): string {
  const card = field(request, 'AA') ?? '';
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  const ended = session.terminal !== undefined;
  return answerText(
    '36',
    [yn(ended), now(services)],
    [
      ['AO', institution],
      ['AA', card],
      ['AF', ended ? undefined : 'this terminal has not signed in: send a 93 login first'],
    ],
  );
}
