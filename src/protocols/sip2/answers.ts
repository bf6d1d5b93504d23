/**
 * @module The answer to each SIP2 request (3M SIP2 2.00), as text without its trailer: 93 → 94, 99 → 98,
 * 23 → 24, 63 → 64, 17 → 18, 11 → 12, 09 → 10, 29 → 30, 35 → 36. A refusal is the answer's own "not ok"
 * form with the policy's reason as the screen message (AF); every request but 93 and 99 needs a login first.
 */

import { listCurrentLoans, listOpenHolds } from '../../db/queries/my-account.js';
import { countCharges, findCardNumber, findItemInformation, findTerminalSignIn } from '../../db/queries/sip2.js';
import { fineLimitReason, overFineLimit } from '../../domain/account.js';
import { placementText } from '../../domain/desk.js';
import { CatalogueError } from '../../domain/errors.js';
import { formatMoney, type Money, minorUnitDigits, money } from '../../domain/money.js';
import { verifyNothing, verifyPin } from '../../domain/pin.js';
import type { Sip2Terminal } from '../../domain/sip2-terminal.js';
import { checkIn, checkOut, patronOf, pinMatches, renew, scannedCopy } from './circulation.js';
import { sip2Date } from './dates.js';
import { answerText, type Field, type Request } from './frame.js';
import { PROTOCOL_VERSION, SUPPORTED_MESSAGES } from './messages.js';
import { type Services, signedInTerminal } from './services.js';

/** What a connection knows while it answers: the terminal signed in, if any. */
export interface Session {
  terminal: Sip2Terminal | undefined;
}

/** Items listed at most in one patron information answer, whatever BP and BQ ask. */
const ITEMS_LISTED = 50;
/** The language field: 000, unknown (the catalogue's words are its own). */
const LANGUAGE = '000';

const yn = (value: boolean) => (value ? 'Y' : 'N');
const count4 = (n: number) => String(Math.min(n, 9999)).padStart(4, '0');

/** Answers a request; a login also sets the session's terminal. */
export async function answer(services: Services, session: Session, request: Request): Promise<string> {
  switch (request.code) {
    case '93':
      return login(services, session, request);
    case '99':
      return acsStatus(services, session);
    case '23':
      return patronStatus(services, session, request);
    case '63':
      return patronInformation(services, session, request);
    case '17':
      return itemInformation(services, session, request);
    case '11':
      return checkout(services, session, request);
    case '09':
      return checkin(services, session, request);
    case '29':
      return renewal(services, session, request);
    default:
      return endSession(services, session, request);
  }
}

/** The words of a refusal: a catalogue error's own; anything else is logged and said plainly. */
function reasonOf(services: Services, error: unknown): string {
  if (error instanceof CatalogueError) return error.message;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  services.log.error('sip2 transaction failed', {
    error: error instanceof Error ? error.name : String(error),
    ...(cause !== undefined && { cause }),
  });
  return 'the catalogue could not do this now; try again or ask at the desk';
}

const field = (request: Request, tag: string) => request.fields.get(tag);
/** A field trimmed, or undefined when absent or blank. */
const given = (request: Request, tag: string) => field(request, tag)?.trim() || undefined;

function now(services: Services): string {
  return sip2Date(services.clock.now(), services.timeZone);
}

async function login(services: Services, session: Session, request: Request): Promise<string> {
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

function acsStatus(services: Services, session: Session): string {
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

/** The 14 characters of patron status: Y where a privilege is denied, a space elsewhere. */
function patronStatusField(services: Services, patron: { balance: Money; openHolds: number } | undefined): string {
  const status = Array.from({ length: 14 }, () => ' ');
  if (!patron) {
    status[0] = 'Y';
    status[1] = 'Y';
    status[3] = 'Y';
    return status.join('');
  }
  const owed = fineLimitReason(patron.balance, services.policy.rules.fineLimit) !== undefined;
  // Charge and renewal privileges, and excessive outstanding fines: the fine limit's rule.
  if (owed) {
    status[0] = 'Y';
    status[1] = 'Y';
    status[10] = 'Y';
  }
  if (patron.openHolds >= services.policy.rules.maxHolds) status[3] = 'Y';
  return status.join('');
}

/** What a balance is as SIP2's fee amount (BV): a decimal of the currency's major unit, e.g. `2.50`. */
function feeAmount(balance: Money): string {
  const digits = minorUnitDigits(balance.currency);
  const units = String(Math.abs(balance.minor)).padStart(digits + 1, '0');
  const whole = units.slice(0, units.length - digits);
  const text = digits > 0 ? `${whole}.${units.slice(units.length - digits)}` : whole;
  return balance.minor < 0 ? `-${text}` : text;
}

/** The patron's screen message: why they may not borrow, in the policy's words, if they may not. */
function blockReason(services: Services, balance: Money): string | undefined {
  const owed = fineLimitReason(balance, services.policy.rules.fineLimit);
  return owed ? overFineLimit(owed).message : undefined;
}

async function patronStatus(services: Services, session: Session, request: Request): Promise<string> {
  const card = field(request, 'AA') ?? '';
  const pin = field(request, 'AD');
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  try {
    signedInTerminal(session.terminal);
    const patron = await patronOf(services, card, undefined);
    const holds = await listOpenHolds(services.db, { borrowerId: patron.id, at: services.clock.now() });
    const passwordOk = pin ? await pinMatches(services, card, pin) : undefined;
    const fixed = [
      patronStatusField(services, { balance: patron.balance, openHolds: holds.length }),
      LANGUAGE,
      now(services),
    ];
    return answerText('24', fixed, [
      ['AO', institution],
      ['AA', card],
      ['AE', patron.name],
      ['BL', 'Y'],
      ['CQ', passwordOk === undefined ? undefined : yn(passwordOk)],
      ['BH', patron.balance.currency],
      ['BV', feeAmount(patron.balance)],
      ['AF', blockReason(services, patron.balance)],
    ]);
  } catch (error) {
    return answerText(
      '24',
      [patronStatusField(services, undefined), LANGUAGE, now(services)],
      [
        ['AO', institution],
        ['AA', card],
        ['AE', ''],
        ['BL', 'N'],
        ['AF', reasonOf(services, error)],
      ],
    );
  }
}

async function patronInformation(services: Services, session: Session, request: Request): Promise<string> {
  const card = field(request, 'AA') ?? '';
  const pin = field(request, 'AD');
  const summary = request.fixed[2] ?? '';
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  try {
    signedInTerminal(session.terminal);
    const patron = await patronOf(services, card, undefined);
    const at = services.clock.now();
    const [loans, holds, charges] = await Promise.all([
      listCurrentLoans(services.db, { borrowerId: patron.id }),
      listOpenHolds(services.db, { borrowerId: patron.id, at }),
      countCharges(services.db, { userId: patron.id }),
    ]);
    const passwordOk = pin ? await pinMatches(services, card, pin) : undefined;
    const overdue = loans.filter((loan) => services.policy.loanStatus(loan) === 'overdue');
    const ready = holds.filter((hold) => hold.status === 'ready');
    const unavailable = holds.filter((hold) => hold.status !== 'ready');
    const fixed = [
      patronStatusField(services, { balance: patron.balance, openHolds: holds.length }),
      LANGUAGE,
      now(services),
      count4(ready.length),
      count4(overdue.length),
      count4(loans.length),
      count4(charges),
      count4(0),
      count4(unavailable.length),
    ];
    // BP and BQ: the first and last item listed, counted from 1.
    const first = Math.max(1, Number.parseInt(field(request, 'BP') ?? '1', 10) || 1);
    const last = Math.min(first + ITEMS_LISTED - 1, Number.parseInt(field(request, 'BQ') ?? '', 10) || Infinity);
    const listed = <T>(items: T[], tag: string, id: (item: T) => string): Field[] =>
      items.slice(first - 1, last).map((item) => [tag, id(item)] as const);
    const barcode = (loan: (typeof loans)[number]) => loan.barcode ?? loan.title;
    const items: Field[] =
      summary[0] === 'Y'
        ? listed(ready, 'AS', (hold) => hold.title)
        : summary[1] === 'Y'
          ? listed(overdue, 'AT', barcode)
          : summary[2] === 'Y'
            ? listed(loans, 'AU', barcode)
            : summary[5] === 'Y'
              ? listed(unavailable, 'CD', (hold) => hold.title)
              : [];
    const { fineLimit, maxHolds } = services.policy.rules;
    return answerText('64', fixed, [
      ['AO', institution],
      ['AA', card],
      ['AE', patron.name],
      ['BZ', count4(maxHolds)],
      ['BL', 'Y'],
      ['CQ', passwordOk === undefined ? undefined : yn(passwordOk)],
      ['BH', patron.balance.currency],
      ['BV', feeAmount(patron.balance)],
      ['CC', fineLimit === 'none' ? undefined : feeAmount(money(fineLimit, patron.balance.currency))],
      ...items,
      ['AF', blockReason(services, patron.balance)],
    ]);
  } catch (error) {
    const fixed = [patronStatusField(services, undefined), LANGUAGE, now(services), ...Array(6).fill(count4(0))];
    return answerText('64', fixed, [
      ['AO', institution],
      ['AA', card],
      ['AE', ''],
      ['BL', 'N'],
      ['AF', reasonOf(services, error)],
    ]);
  }
}

/** SIP2's circulation status of a copy. */
const CIRCULATION_STATUS = {
  available: '03',
  on_loan: '04',
  on_hold: '08',
  in_transit: '10',
  withdrawn: '01',
} as const;

async function itemInformation(services: Services, session: Session, request: Request): Promise<string> {
  const barcode = field(request, 'AB') ?? '';
  try {
    signedInTerminal(session.terminal);
    const item = barcode ? await findItemInformation(services.db, { barcode }) : undefined;
    if (!item) {
      return answerText(
        '18',
        ['01', '00', '01', now(services)],
        [
          ['AB', barcode],
          ['AJ', ''],
          ['AF', 'barcode names no copy'],
        ],
      );
    }
    // circulation status, security marker (00 other), fee type (01 other/unknown), transaction date.
    return answerText(
      '18',
      [CIRCULATION_STATUS[item.status], '00', '01', now(services)],
      [
        ['CF', count4(item.holds_queued)],
        ['AH', item.due_at === null ? undefined : sip2Date(item.due_at, services.timeZone)],
        ['AB', item.barcode],
        ['AJ', item.title],
        ['AQ', item.home_branch],
        ['AP', item.location_branch],
        ['CT', item.transit_to_branch ?? undefined],
      ],
    );
  } catch (error) {
    return answerText(
      '18',
      ['01', '00', '01', now(services)],
      [
        ['AB', barcode],
        ['AJ', ''],
        ['AF', reasonOf(services, error)],
      ],
    );
  }
}

async function checkout(services: Services, session: Session, request: Request): Promise<string> {
  const card = given(request, 'AA') ?? '';
  const barcode = given(request, 'AB') ?? '';
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  let title = '';
  try {
    const terminal = signedInTerminal(session.terminal);
    const copy = await scannedCopy(services, barcode);
    title = copy.title;
    const { loan, renewed } = await checkOut(services, terminal, {
      card,
      pin: given(request, 'AD'),
      copy,
      renewals: request.fixed[0] === 'Y',
    });
    // ok, renewal ok, magnetic media (unknown), desensitize, transaction date.
    return answerText(
      '12',
      ['1', yn(renewed), 'U', 'Y', now(services)],
      [
        ['AO', institution],
        ['AA', card],
        ['AB', barcode],
        ['AJ', title],
        ['AH', sip2Date(loan.due_at, services.timeZone)],
        ['AF', renewed ? 'renewed' : undefined],
      ],
    );
  } catch (error) {
    return answerText(
      '12',
      ['0', 'N', 'U', 'N', now(services)],
      [
        ['AO', institution],
        ['AA', card],
        ['AB', barcode],
        ['AJ', title],
        ['AH', ''],
        ['AF', reasonOf(services, error)],
      ],
    );
  }
}

/** The alert type (CV) of a copy checked in: a hold here (01), a hold elsewhere (02), another branch (04). */
function alertType(goesTo: string, holdId: number | null): string | undefined {
  if (goesTo === 'hold_shelf') return '01';
  if (goesTo === 'in_transit') return holdId === null ? '04' : '02';
  return undefined;
}

async function checkin(services: Services, session: Session, request: Request): Promise<string> {
  const barcode = given(request, 'AB') ?? '';
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  let title = '';
  try {
    const terminal = signedInTerminal(session.terminal);
    const copy = await scannedCopy(services, barcode);
    title = copy.title;
    const { returned, placement } = await checkIn(services, terminal, copy);
    const fine = returned?.fine ?? null;
    const item = await findItemInformation(services.db, { barcode });
    const alert = alertType(placement.goes_to, placement.hold_id);
    const holder =
      placement.patron_id === null ? null : await findCardNumber(services.db, { userId: placement.patron_id });
    const words =
      (returned ? '' : 'Received: ') + placementText(placement) + (fine ? `; fine charged: ${formatMoney(fine)}` : '');
    // ok, resensitize, magnetic media (unknown), alert, transaction date.
    return answerText(
      '10',
      ['1', 'Y', 'U', yn(alert !== undefined), now(services)],
      [
        ['AO', institution],
        ['AB', barcode],
        ['AQ', item?.home_branch ?? ''],
        ['AJ', title],
        ['CT', placement.goes_to === 'shelf' ? undefined : placement.branch_name],
        ['CV', alert],
        ['CY', holder ?? undefined],
        ['DA', placement.patron_name ?? undefined],
        ['AF', words],
      ],
    );
  } catch (error) {
    return answerText(
      '10',
      ['0', 'N', 'U', 'N', now(services)],
      [
        ['AO', institution],
        ['AB', barcode],
        ['AQ', ''],
        ['AJ', title],
        ['AF', reasonOf(services, error)],
      ],
    );
  }
}

async function renewal(services: Services, session: Session, request: Request): Promise<string> {
  const card = given(request, 'AA') ?? '';
  const barcode = given(request, 'AB') ?? '';
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  let title = '';
  try {
    const terminal = signedInTerminal(session.terminal);
    const copy = await scannedCopy(services, barcode);
    title = copy.title;
    const loan = await renew(services, terminal, { card, pin: given(request, 'AD'), copy });
    // ok, renewal ok, magnetic media (unknown), desensitize (unknown), transaction date.
    return answerText(
      '30',
      ['1', 'Y', 'U', 'U', now(services)],
      [
        ['AO', institution],
        ['AA', card],
        ['AB', barcode],
        ['AJ', title],
        ['AH', sip2Date(loan.due_at, services.timeZone)],
      ],
    );
  } catch (error) {
    return answerText(
      '30',
      ['0', 'N', 'U', 'U', now(services)],
      [
        ['AO', institution],
        ['AA', card],
        ['AB', barcode],
        ['AJ', title],
        ['AH', ''],
        ['AF', reasonOf(services, error)],
      ],
    );
  }
}

/** Ending a patron's session keeps nothing to end (a terminal holds no patron state): always Y once signed in. */
function endSession(services: Services, session: Session, request: Request): string {
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
