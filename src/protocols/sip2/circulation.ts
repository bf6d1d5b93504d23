/**
 * @module SIP2's circulation, the adapter to the desk's: a checkout (11) lends by card and barcode as
 * `POST /desk/checkouts` does, a checkin (09) checks in by barcode with the desk's own decision
 * (`checkInCopy`: a loan returned, a copy in transit received or sent on), a renewal (29) renews as
 * `POST /loans/{id}/renewals` does. The same look-ups, policy predicates and circulation
 * transactions decide; a refusal's words are the policy's, carried as the screen message (AF).
 */

import { tryPin } from '../../db/pin-check.js';
import { checkInCopy } from '../../db/queries/check-in.js';
import { borrowCopy, renewLoan as extendLoan, settleExpiredHolds } from '../../db/queries/circulation.js';
import { findActiveLoanOfCopy, findCopyByBarcode, findPatronByCard } from '../../db/queries/desk.js';
import { findRenewableLoan } from '../../db/queries/lending-decisions.js';
import { findCardSignIn } from '../../db/queries/pins.js';
import {
  type CheckedIn,
  type Patron,
  type ScannedCopy,
  unknownBarcode,
  unknownCard,
  withdrawnCopyScanned,
} from '../../domain/desk.js';
import { Conflict, NotFound, Unauthorized } from '../../domain/errors.js';
import type { Loan } from '../../domain/loan.js';
import { authorize, type SignedIn } from '../../domain/policy.js';
import { CARD_SIGN_IN_REFUSED } from '../../domain/session.js';
import type { Sip2Terminal } from '../../domain/sip2-terminal.js';
import { actingCaller, type Services } from './services.js';

/** The patron a card names, their PIN checked when the terminal sent one (AD), with the lockout of card sign-in. */
export async function patronOf(services: Services, card: string, pin: string | undefined): Promise<Patron> {
  const patron = await findPatronByCard(services.db, { cardNumber: card, currency: services.policy.currency });
  if (!patron) throw unknownCard();
  if (pin !== undefined && !(await pinMatches(services, card, pin))) throw new Unauthorized(CARD_SIGN_IN_REFUSED);
  return patron;
}

/** Whether `pin` is the card's PIN: counted, and refused while the card is locked, as card sign-in is. */
export async function pinMatches(services: Services, card: string, pin: string): Promise<boolean> {
  const signIn = await findCardSignIn(services.db, { cardNumber: card });
  if (!signIn) return false;
  return tryPin({ db: services.db, clock: services.clock, lockout: services.pins }, signIn, pin);
}

/** The copy a barcode names, never a withdrawn one: as the desk scans it. */
export async function scannedCopy(services: Services, barcode: string): Promise<ScannedCopy> {
  const copy = await findCopyByBarcode(services.db, { barcode });
  if (!copy) throw unknownBarcode();
  if (copy.withdrawn) throw withdrawnCopyScanned(copy);
  return copy;
}

/** A desk's caller: the terminal's librarian, allowed the desk now. */
async function deskCaller(services: Services, terminal: Sip2Terminal): Promise<SignedIn> {
  const caller = await actingCaller(services, terminal);
  authorize(services.policy.useDesk(caller));
  return caller;
}

/** What a checkout did: the loan made (or renewed, for a copy already out to this patron) and its copy. */
export interface CheckedOut {
  loan: Loan;
  renewed: boolean;
}

/**
 * Lends the copy to the card's patron at the terminal's branch, as the desk does. A copy already on loan to
 * this patron is renewed instead when the terminal's renewal policy allows it (SC renewal policy Y).
 */
export async function checkOut(
  services: Services,
  terminal: Sip2Terminal,
  params: { card: string; pin: string | undefined; copy: ScannedCopy; renewals: boolean },
): Promise<CheckedOut> {
  const caller = await deskCaller(services, terminal);
  const patron = await patronOf(services, params.card, params.pin);
  const { copy } = params;
  if (params.renewals) {
    const out = await findActiveLoanOfCopy(services.db, { copyId: copy.id });
    if (out && out.borrower_id === patron.id) return { loan: await renewOne(services, caller, out.id), renewed: true };
  }
  const { holdDays, fineLimit } = services.policy.rules;
  const at = services.clock.now();
  await settleExpiredHolds(services.db, { bookId: copy.book_id, holdDays, at });
  const loan = await borrowCopy(services.db, {
    bookId: copy.book_id,
    borrowerId: patron.id,
    copyId: copy.id,
    branchId: terminal.branchId,
    holdDays,
    fineLimit,
    currency: services.policy.currency,
    at,
    timeZone: services.timeZone,
  });
  return { loan, renewed: false };
}

/**
 * Checks the copy in at the terminal's branch, as the desk's check-in does (`checkInCopy`): a loan returned,
 * with where the copy goes now and the fine charged; or a copy in transit received here, or sent on from here.
 */
export async function checkIn(services: Services, terminal: Sip2Terminal, copy: ScannedCopy): Promise<CheckedIn> {
  const caller = await deskCaller(services, terminal);
  return checkInCopy(services.db, services.policy, caller, {
    copy,
    branchId: terminal.branchId,
    at: services.clock.now(),
    timeZone: services.timeZone,
  });
}

/** Renews the patron's loan of the copy, as `POST /loans/{id}/renewals` does. */
export async function renew(
  services: Services,
  terminal: Sip2Terminal,
  params: { card: string; pin: string | undefined; copy: ScannedCopy },
): Promise<Loan> {
  const caller = await deskCaller(services, terminal);
  const patron = await patronOf(services, params.card, params.pin);
  const out = await findActiveLoanOfCopy(services.db, { copyId: params.copy.id });
  if (!out || out.borrower_id !== patron.id) {
    throw new Conflict(`copy ${params.copy.id} (barcode ${params.copy.barcode}) is not on loan to this card`);
  }
  return renewOne(services, caller, out.id);
}

async function renewOne(services: Services, caller: SignedIn, id: number): Promise<Loan> {
  const { db, policy } = services;
  // Decided again now: the borrower's category, the copy and the rules as they stand.
  const loan = await findRenewableLoan(db, { id });
  if (!loan) throw new NotFound(`loan ${id} not found`);
  authorize(policy.renewLoan(caller, loan));
  const { decision } = loan;
  const renewed =
    decision &&
    (await extendLoan(db, {
      id,
      decision,
      at: services.clock.now(),
      timeZone: services.timeZone,
      fineLimit: policy.rules.fineLimit,
    }));
  if (renewed) return renewed;
  // Something changed since the read (a renewal, a hold, the clock): the fresh state says what.
  const now = await findRenewableLoan(db, { id });
  if (!now) throw new NotFound(`loan ${id} not found`);
  authorize(policy.renewLoan(caller, now));
  throw new Conflict(`loan ${id} could not be renewed; try again`);
}
