/**
 * @module A branch's calendar: the ISO weekdays it opens and the dates it is closed, in the library's time
 * zone (an IANA name). Due dates move off closed days, and fines count open days only
 * (docs/access-and-loans.md, "Calendar"). Pure: no clock, no database.
 */
import { UnprocessableEntity } from './errors.js';
import {
  dateOfDay,
  dayNumber,
  dayOf,
  endOfLocalDay,
  isoWeekday,
  isTimeZone,
  type LocalDate,
  localDayOf,
} from './local-dates.js';

export type { LocalDate } from './local-dates.js';

const HOUR_MS = 3_600_000;

/** The unit of a loan period: whole local days, or hours from the moment of lending. */
export type PeriodUnit = 'days' | 'hours';

/** A branch's opening days and closures, as a calendar can be built from them (`branchCalendar`). */
export interface CalendarInput {
  /** The library's IANA time zone, in which dates begin and end. */
  timeZone: string;
  /** The ISO weekdays the branch opens: 1 is Monday, 7 Sunday. At least one. */
  openWeekdays: readonly number[];
  /** Dates the branch is closed although its weekday is open (holidays, an emergency closing). */
  closedDates?: readonly LocalDate[];
}

/** A checked calendar: the questions below are answered from it. */
export interface BranchCalendar {
  readonly timeZone: string;
  readonly openWeekdays: ReadonlySet<number>;
  /** Closed dates as day numbers. */
  readonly closedDays: ReadonlySet<number>;
}

/** Why a calendar cannot be built, naming the input at fault: 422 with that field's message. */
export class CalendarError extends UnprocessableEntity {
  constructor(
    readonly field: 'time_zone' | 'open_days' | 'closed_dates',
    message: string,
  ) {
    super(message, { [field]: message });
  }
}

/**
 * A calendar from its input, refused (`CalendarError`) for an unknown time zone, a weekday outside 1..7,
 * no open weekday at all (no due date could ever be found), or a closed date that is not a real date.
 */
export function branchCalendar(input: CalendarInput): BranchCalendar {
  if (!isTimeZone(input.timeZone)) throw new CalendarError('time_zone', `${input.timeZone} is not a time zone`);
  for (const weekday of input.openWeekdays) {
    if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) {
      throw new CalendarError('open_days', `${weekday} is not an ISO weekday (1 is Monday, 7 Sunday)`);
    }
  }
  if (input.openWeekdays.length === 0) throw new CalendarError('open_days', 'a branch opens on one weekday at least');
  const closedDays = new Set<number>();
  for (const date of input.closedDates ?? []) {
    const day = dayNumber(date);
    if (day === undefined) throw new CalendarError('closed_dates', `${date} is not a date (YYYY-MM-DD)`);
    closedDays.add(day);
  }
  return { timeZone: input.timeZone, openWeekdays: new Set(input.openWeekdays), closedDays };
}

function isOpenDay(calendar: BranchCalendar, day: number): boolean {
  return calendar.openWeekdays.has(isoWeekday(day)) && !calendar.closedDays.has(day);
}

/** Whether the branch opens on a local date. */
export function isOpen(calendar: BranchCalendar, date: LocalDate): boolean {
  return isOpenDay(calendar, dayOf(date));
}

/**
 * The first day on or after `day` that the branch opens. A run of shut days is at most six closed weekdays
 * between each closed date, so the search ends within 7 × (closed dates + 1) days.
 */
function nextOpenDayNumber(calendar: BranchCalendar, day: number): number {
  const bound = day + 7 * (calendar.closedDays.size + 1);
  for (let candidate = day; candidate <= bound; candidate++) if (isOpenDay(calendar, candidate)) return candidate;
  throw new RangeError('a calendar with an open weekday always opens within its bound');
}

/** The first local date on or after `date` that the branch opens. */
export function nextOpenDay(calendar: BranchCalendar, date: LocalDate): LocalDate {
  return dateOfDay(nextOpenDayNumber(calendar, dayOf(date)));
}

/**
 * When a loan lent at `start` for `period` units is due.
 * - `days`: at the end of the local day `period` days after the start's local date (its last millisecond,
 *   23:59:59.999 local, so the due date reads as that day and the loan is overdue from the next day's first
 *   instant); if the branch is closed that day, at the end of its next open day.
 * - `hours`: `period` hours after `start`; if that instant falls on a closed local day, at the end of the
 *   branch's next open day. A branch's calendar knows its days, not its opening hours: the whole of the next
 *   open day is the earliest time the item can surely come back.
 * A period is a whole number, not negative (0 days: due at the end of the day it was lent).
 */
export function dueDateFor(start: Date, period: number, unit: PeriodUnit, calendar: BranchCalendar): Date {
  if (!Number.isSafeInteger(period) || period < 0) throw new RangeError(`a loan period is a whole number: ${period}`);
  const { timeZone } = calendar;
  if (unit === 'hours') {
    const due = start.getTime() + period * HOUR_MS;
    const day = localDayOf(due, timeZone);
    if (isOpenDay(calendar, day)) return new Date(due);
    return new Date(endOfLocalDay(nextOpenDayNumber(calendar, day), timeZone));
  }
  const day = localDayOf(start.getTime(), timeZone) + period;
  return new Date(endOfLocalDay(nextOpenDayNumber(calendar, day), timeZone));
}

/**
 * The open days after `from`'s local date, up to and including `to`'s: the days a loan due at `from` and
 * back at `to` was overdue on (a day begun after the due instant counts; 0 when `to` is not after `from`'s
 * day). Counted by whole weeks, then the closed dates among them.
 */
export function openDaysBetween(calendar: BranchCalendar, from: Date, to: Date): number {
  const first = localDayOf(from.getTime(), calendar.timeZone) + 1;
  const last = localDayOf(to.getTime(), calendar.timeZone);
  if (last < first) return 0;
  const span = last - first + 1;
  const weeks = Math.floor(span / 7);
  let open = weeks * calendar.openWeekdays.size;
  for (let day = first + weeks * 7; day <= last; day++) if (calendar.openWeekdays.has(isoWeekday(day))) open++;
  for (const closed of calendar.closedDays) {
    if (closed >= first && closed <= last && calendar.openWeekdays.has(isoWeekday(closed))) open--;
  }
  return open;
}
