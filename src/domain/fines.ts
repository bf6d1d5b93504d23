/**
 * @module The overdue fine of a loan: so much per open day overdue beyond the grace days, up to a cap.
 * Days are the branch's open days (closed days accrue nothing), counted in the library's time zone by the
 * calendar of the branch where the loan is due (docs/access-and-loans.md, "Fines"). Pure: the caller says
 * when the loan ended (returned, or declared lost).
 */
import { type BranchCalendar, openDaysBetween } from './calendar.js';
import { compare, type Money, multiply } from './money.js';

/** What a loan's rule says of fines. */
export interface FineTerms {
  /** Charged per open day overdue beyond the grace days; 0 for no fine. */
  finePerDay: Money;
  /** Open days overdue that are never charged, whole and not negative. */
  graceDays: number;
  /** Most one loan is fined, in the fine's currency; `none` for no cap. */
  fineCap: Money | 'none';
}

export interface OverdueFine {
  /** Open days the loan was overdue: each open day begun after its due instant, up to its end's day. */
  overdueDays: number;
  /** Of those, the ones charged: all beyond the grace days (the grace days are never charged). */
  chargedDays: number;
  /** The fine: `finePerDay` × `chargedDays`, no more than the cap. */
  amount: Money;
  /** The cap cut the fine down. */
  capped: boolean;
}

/**
 * The fine of a loan due at `dueAt` that ended (returned or declared lost) at `endedAt`. Back within the
 * grace days: no fine; later: every open day beyond the grace days, so a grace of 2 and a return on the
 * fifth open day charge three days.
 */
export function overdueFine(terms: FineTerms, dueAt: Date, endedAt: Date, calendar: BranchCalendar): OverdueFine {
  if (!Number.isSafeInteger(terms.graceDays) || terms.graceDays < 0) {
    throw new RangeError(`grace days are a whole number: ${terms.graceDays}`);
  }
  const overdueDays = openDaysBetween(calendar, dueAt, endedAt);
  const chargedDays = Math.max(0, overdueDays - terms.graceDays);
  const full = multiply(terms.finePerDay, chargedDays);
  const capped = terms.fineCap !== 'none' && compare(full, terms.fineCap) > 0;
  const amount = capped ? (terms.fineCap as Money) : full;
  return { overdueDays, chargedDays, amount, capped };
}
