/**
 * @module A patron as a terminal asks after them: 23 patron status → 24, 63 patron information → 64. What
 * blocks them is the fine limit's rule and the cap on holds, in the policy's words.
 */
import { listCurrentLoans, listOpenHolds } from '../../db/queries/my-account.js';
import { countCharges } from '../../db/queries/sip2.js';
import { fineLimitReason, overFineLimit } from '../../domain/account.js';
import { type Money, money } from '../../domain/money.js';
import { patronOf, pinMatches } from './circulation.js';
import { count4, feeAmount, field, LANGUAGE, now, reasonOf, yn } from './fields.js';
import { answerText, type Field, type Request } from './frame.js';
import { type Services, type Session, signedInTerminal } from './services.js';

/** Items listed at most in one patron information answer, whatever BP and BQ ask. */
const ITEMS_LISTED = 50;

/** The 14 characters of patron status: Y where a privilege is denied, a space elsewhere. */
export function patronStatusField(
  services: Services,
  patron: { balance: Money; openHolds: number } | undefined,
): string {
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

/** The patron's screen message: why they may not borrow, in the policy's words, if they may not. */
export function blockReason(services: Services, balance: Money): string | undefined {
  const owed = fineLimitReason(balance, services.policy.rules.fineLimit);
  return owed ? overFineLimit(owed).message : undefined;
}

export async function patronStatus(services: Services, session: Session, request: Request): Promise<string> {
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

export async function patronInformation(services: Services, session: Session, request: Request): Promise<string> {
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
