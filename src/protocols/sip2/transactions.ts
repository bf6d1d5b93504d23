/**
 * @module Lending, returning and renewing as a terminal asks: 11 checkout → 12, 09 checkin → 10, 29 renew →
 * 30, through the desk's circulation (`circulation.ts`). A refusal is the answer's "not ok" form with the
 * policy's reason as its screen message (AF).
 */
import { findCardNumber, findItemInformation } from '../../db/queries/sip2.js';
import { checkInText, placementOfCheckIn } from '../../domain/desk.js';
import { formatMoney } from '../../domain/money.js';
import { checkIn, checkOut, renew, scannedCopy } from './circulation.js';
import { sip2Date } from './dates.js';
import { field, given, now, reasonOf, yn } from './fields.js';
import { answerText, type Field, type Request } from './frame.js';
import { type Services, type Session, signedInTerminal } from './services.js';

export async function checkout(services: Services, session: Session, request: Request): Promise<string> {
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
      itemFields(
        { institution, card, barcode, title },
        sip2Date(loan.due_at, services.timeZone),
        renewed ? 'renewed' : undefined,
      ),
    );
  } catch (error) {
    return answerText(
      '12',
      ['0', 'N', 'U', 'N', now(services)],
      itemFields({ institution, card, barcode, title }, '', reasonOf(services, error)),
    );
  }
}

/** The alert type (CV) of a copy checked in: a hold here (01), a hold elsewhere (02), another branch (04). */
export function alertType(goesTo: string, holdId: number | null): string | undefined {
  if (goesTo === 'hold_shelf') return '01';
  if (goesTo === 'in_transit') return holdId === null ? '04' : '02';
  return undefined;
}

export async function checkin(services: Services, session: Session, request: Request): Promise<string> {
  const barcode = given(request, 'AB') ?? '';
  const institution = session.terminal?.institutionId ?? field(request, 'AO') ?? '';
  let title = '';
  try {
    const terminal = signedInTerminal(session.terminal);
    const copy = await scannedCopy(services, barcode);
    title = copy.title;
    const done = await checkIn(services, terminal, copy);
    const placement = placementOfCheckIn(done);
    const fine = done.action === 'returned' ? done.returned.fine : null;
    const item = await findItemInformation(services.db, { barcode });
    const alert = alertType(placement.goes_to, placement.hold_id);
    const holder =
      placement.patron_id === null ? null : await findCardNumber(services.db, { userId: placement.patron_id });
    // The desk's words for what the check-in did.
    const words = checkInText(done.action, placement) + (fine ? `; fine charged: ${formatMoney(fine)}` : '');
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

export async function renewal(services: Services, session: Session, request: Request): Promise<string> {
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
      itemFields({ institution, card, barcode, title }, sip2Date(loan.due_at, services.timeZone)),
    );
  } catch (error) {
    return answerText(
      '30',
      ['0', 'N', 'U', 'U', now(services)],
      itemFields({ institution, card, barcode, title }, '', reasonOf(services, error)),
    );
  }
}

/**
 * The variable fields of a checkout (12) or renew (30) answer, in the specification's order: institution,
 * patron, item, title, due date (empty when refused), and the screen message when there is one.
 */
function itemFields(
  item: { institution: string; card: string; barcode: string; title: string },
  dueDate: string,
  screenMessage?: string,
): Field[] {
  return [
    ['AO', item.institution],
    ['AA', item.card],
    ['AB', item.barcode],
    ['AJ', item.title],
    ['AH', dueDate],
    ['AF', screenMessage],
  ];
}
