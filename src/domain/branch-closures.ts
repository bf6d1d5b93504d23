/**
 * @module A branch's closures: the dates it is closed although its weekday is open. What a closure is, what
 * a librarian writes to add one, and which dates may be added (today or later, in the library's time zone).
 */
import { UnprocessableEntity } from './errors.js';
import type { InputField, InputOf } from './input.js';
import { dayNumber, type LocalDate, localDateOf } from './local-dates.js';

/** A closure as read. */
export interface BranchClosure {
  id: number;
  branch_id: number;
  /** The local date the branch is closed (`YYYY-MM-DD`). */
  date: LocalDate;
  reason: string | null;
  created_at: string;
}

/** A closure just added: with the number of loans due that day that moved to the next open day. */
export interface AddedClosure extends BranchClosure {
  moved_loans: number;
}

/** The longest reason, as the database checks it (`branch_closures_reason_length`). */
export const CLOSURE_REASON_MAX_LENGTH = 200;

/** What adding a closure takes. */
export const closureInputFields = [
  { name: 'date', type: 'date', required: true, title: 'Date closed' },
  { name: 'reason', type: 'string', required: false, maxLength: CLOSURE_REASON_MAX_LENGTH, title: 'Reason' },
] as const satisfies readonly InputField[];

export type ClosureInput = InputOf<typeof closureInputFields>;

/**
 * The date of a closure to add, refused (422 naming `date`) when it is not a real date or is before today
 * in the library's time zone: a day gone by cannot close, and loans already overdue stay so. Today can (an
 * emergency).
 */
export function closureDate(date: string, at: Date, timeZone: string): LocalDate {
  if (dayNumber(date) === undefined) {
    throw new UnprocessableEntity(`${date} is not a date (YYYY-MM-DD)`, { date: 'must be a real date (YYYY-MM-DD)' });
  }
  const today = localDateOf(at, timeZone);
  if (date < today) {
    throw new UnprocessableEntity(`${date} is before today (${today}): a closure is for today or a later day`, {
      date: `must be today (${today}) or later`,
    });
  }
  return date;
}
