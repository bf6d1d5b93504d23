/**
 * A branch's calendar, worked by hand: which local dates it opens, the next open day, due dates for days and
 * hours (moved off closed days, at the end of the local day), and open days between two instants, in UTC and
 * across Europe/London's DST changes (a 23-hour and a 25-hour day), and a zone whose midnight is skipped.
 */
import { describe, expect, it } from 'vitest';
import {
  branchCalendar,
  CalendarError,
  dueDateFor,
  isOpen,
  nextOpenDay,
  openDaysBetween,
} from '../src/domain/calendar.js';
import { dayOf, endOfLocalDay, isTimeZone, localDateOf, startOfLocalDay } from '../src/domain/local-dates.js';

const at = (iso: string) => new Date(iso);
const MON_TO_SAT = [1, 2, 3, 4, 5, 6];

describe('a branch calendar', () => {
  // June 2026: Monday 1st to Sunday 14th. Closed on Sundays, and on Wednesday 10th (an emergency closing).
  const june = branchCalendar({ timeZone: 'UTC', openWeekdays: MON_TO_SAT, closedDates: ['2026-06-10'] });

  it('opens on its weekdays, not on Sundays nor on a closed date', () => {
    const table: [string, boolean][] = [
      ['2026-06-01', true], // Monday
      ['2026-06-06', true], // Saturday
      ['2026-06-07', false], // Sunday
      ['2026-06-09', true], // Tuesday
      ['2026-06-10', false], // Wednesday, closed
      ['2026-06-11', true], // Thursday
    ];
    for (const [date, open] of table) expect(isOpen(june, date), date).toBe(open);
  });

  it('finds the next open day on or after a date, stepping over Sundays and closures', () => {
    const table: [string, string][] = [
      ['2026-06-01', '2026-06-01'],
      ['2026-06-07', '2026-06-08'],
      ['2026-06-10', '2026-06-11'],
    ];
    for (const [date, next] of table) expect(nextOpenDay(june, date), date).toBe(next);
    // A closed Monday after a Sunday: two days on.
    const bankHoliday = branchCalendar({ timeZone: 'UTC', openWeekdays: MON_TO_SAT, closedDates: ['2026-06-08'] });
    expect(nextOpenDay(bankHoliday, '2026-06-07')).toBe('2026-06-09');
  });

  it('a loan in days is due at the end of the local day, moved to the end of the next open day', () => {
    const table: [string, number, string][] = [
      // lent at, days, due
      ['2026-06-01T09:30:00.000Z', 0, '2026-06-01T23:59:59.999Z'],
      ['2026-06-01T09:30:00.000Z', 4, '2026-06-05T23:59:59.999Z'], // Friday
      ['2026-06-01T09:30:00.000Z', 6, '2026-06-08T23:59:59.999Z'], // Sunday → Monday
      ['2026-06-02T17:00:00.000Z', 8, '2026-06-11T23:59:59.999Z'], // the closed Wednesday → Thursday
      ['2026-06-01T23:59:59.999Z', 1, '2026-06-02T23:59:59.999Z'], // the last instant of a day is that day
    ];
    for (const [lent, days, due] of table) {
      expect(dueDateFor(at(lent), days, 'days', june).toISOString(), `${lent} + ${days} days`).toBe(due);
    }
  });

  it('a loan in hours is due that many hours on, or at the end of the next open day if that falls on a closed one', () => {
    const table: [string, number, string][] = [
      ['2026-06-01T09:00:00.000Z', 4, '2026-06-01T13:00:00.000Z'],
      ['2026-06-01T20:00:00.000Z', 6, '2026-06-02T02:00:00.000Z'], // past midnight, Tuesday is open
      ['2026-06-06T20:00:00.000Z', 6, '2026-06-08T23:59:59.999Z'], // into Sunday → the end of Monday
      ['2026-06-09T12:00:00.000Z', 24, '2026-06-11T23:59:59.999Z'], // the closed Wednesday → Thursday
    ];
    for (const [lent, hours, due] of table) {
      expect(dueDateFor(at(lent), hours, 'hours', june).toISOString(), `${lent} + ${hours} hours`).toBe(due);
    }
  });

  it('counts the open days begun after one instant up to another: Sundays and closures are not counted', () => {
    const due = at('2026-06-01T23:59:59.999Z'); // the end of Monday 1st
    const table: [string, number][] = [
      ['2026-06-01T12:00:00.000Z', 0], // before it was due
      ['2026-06-01T23:59:59.999Z', 0],
      ['2026-06-02T00:00:00.000Z', 1], // Tuesday has begun
      ['2026-06-06T18:00:00.000Z', 5], // Tue, Wed, Thu, Fri, Sat
      ['2026-06-07T18:00:00.000Z', 5], // Sunday adds nothing
      ['2026-06-08T08:00:00.000Z', 6],
      ['2026-06-10T08:00:00.000Z', 7], // the closed Wednesday adds nothing
      ['2026-06-15T08:00:00.000Z', 11], // Thu 11, Fri 12, Sat 13, (Sun), Mon 15
      ['2026-06-29T08:00:00.000Z', 23], // two more whole weeks of six open days
    ];
    for (const [back, days] of table) expect(openDaysBetween(june, due, at(back)), back).toBe(days);
  });

  describe('in Europe/London, across the changes of summer time', () => {
    const london = branchCalendar({ timeZone: 'Europe/London', openWeekdays: MON_TO_SAT });

    it('the day clocks go forward has 23 hours, the day they go back 25', () => {
      const spring = dayOf('2026-03-29');
      expect(new Date(startOfLocalDay(spring, 'Europe/London')).toISOString()).toBe('2026-03-29T00:00:00.000Z');
      expect(new Date(endOfLocalDay(spring, 'Europe/London')).toISOString()).toBe('2026-03-29T22:59:59.999Z');
      const autumn = dayOf('2026-10-25');
      expect(new Date(startOfLocalDay(autumn, 'Europe/London')).toISOString()).toBe('2026-10-24T23:00:00.000Z');
      expect(new Date(endOfLocalDay(autumn, 'Europe/London')).toISOString()).toBe('2026-10-25T23:59:59.999Z');
      // 00:30 BST on Monday 30 March is still Sunday 29th in UTC: its local date is Monday.
      expect(localDateOf(at('2026-03-29T23:30:00.000Z'), 'Europe/London')).toBe('2026-03-30');
    });

    it('due dates are the end of the local day, whatever the offset that day', () => {
      const table: [string, number, 'days' | 'hours', string][] = [
        // Saturday in winter time: 23:59:59.999 GMT.
        ['2026-03-21T15:00:00.000Z', 7, 'days', '2026-03-28T23:59:59.999Z'],
        // Sunday 29th (the short day) is closed: Monday in summer time, 23:59:59.999 BST.
        ['2026-03-20T10:00:00.000Z', 9, 'days', '2026-03-30T22:59:59.999Z'],
        // 23:30 GMT on Saturday plus one day: Sunday is closed, so Monday's end.
        ['2026-03-28T23:30:00.000Z', 1, 'days', '2026-03-30T22:59:59.999Z'],
        // 00:30 BST on Monday 30th is Monday locally: seven days on is Monday 6 April.
        ['2026-03-29T23:30:00.000Z', 7, 'days', '2026-04-06T22:59:59.999Z'],
        // Six hours from 20:00 GMT on Saturday is 03:00 BST on the closed Sunday: the end of Monday.
        ['2026-03-28T20:00:00.000Z', 6, 'hours', '2026-03-30T22:59:59.999Z'],
        // In the long day of October, seven days from Saturday 24th is Saturday 31st in GMT.
        ['2026-10-24T12:00:00.000Z', 7, 'days', '2026-10-31T23:59:59.999Z'],
      ];
      for (const [lent, period, unit, due] of table) {
        expect(dueDateFor(at(lent), period, unit, london).toISOString(), `${lent} + ${period} ${unit}`).toBe(due);
      }
    });

    it('open days are local days: a return just after local midnight counts the new day', () => {
      const due = at('2026-03-28T23:59:59.999Z'); // the end of Saturday 28th, GMT
      const table: [string, number][] = [
        ['2026-03-29T22:30:00.000Z', 0], // 23:30 BST, Sunday (closed)
        ['2026-03-29T23:00:00.000Z', 1], // 00:00 BST, Monday
        ['2026-03-31T08:00:00.000Z', 2], // Tuesday
      ];
      for (const [back, days] of table) expect(openDaysBetween(london, due, at(back)), back).toBe(days);
    });
  });

  it('a day whose midnight is skipped begins when the clocks go forward', () => {
    // São Paulo went from 00:00 to 01:00 on 4 November 2018.
    const day = dayOf('2018-11-04');
    expect(new Date(startOfLocalDay(day, 'America/Sao_Paulo')).toISOString()).toBe('2018-11-04T03:00:00.000Z');
    expect(localDateOf(at('2018-11-04T02:59:59.999Z'), 'America/Sao_Paulo')).toBe('2018-11-03');
    expect(localDateOf(at('2018-11-04T03:00:00.000Z'), 'America/Sao_Paulo')).toBe('2018-11-04');
  });

  it('refuses a calendar with no open weekday, a weekday outside 1..7, an unknown zone or a date that is not one', () => {
    const refusals: [Parameters<typeof branchCalendar>[0], string][] = [
      [{ timeZone: 'UTC', openWeekdays: [] }, 'open_days'],
      [{ timeZone: 'UTC', openWeekdays: [0, 1] }, 'open_days'],
      [{ timeZone: 'UTC', openWeekdays: [8] }, 'open_days'],
      [{ timeZone: 'UTC', openWeekdays: [1.5] }, 'open_days'],
      [{ timeZone: 'Mars/Olympus_Mons', openWeekdays: [1] }, 'time_zone'],
      [{ timeZone: '', openWeekdays: [1] }, 'time_zone'],
      [{ timeZone: 'UTC', openWeekdays: [1], closedDates: ['2026-02-30'] }, 'closed_dates'],
      [{ timeZone: 'UTC', openWeekdays: [1], closedDates: ['10/06/2026'] }, 'closed_dates'],
    ];
    for (const [input, field] of refusals) {
      let error: unknown;
      try {
        branchCalendar(input);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, JSON.stringify(input)).toBeInstanceOf(CalendarError);
      expect((error as CalendarError).field).toBe(field);
      expect((error as CalendarError).status).toBe(422);
      expect(Object.keys((error as CalendarError).details ?? {})).toEqual([field]);
    }
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone(' UTC')).toBe(false);
  });

  it('a loan period is a whole number of days or hours, not negative', () => {
    expect(() => dueDateFor(at('2026-06-01T00:00:00Z'), -1, 'days', june)).toThrow(RangeError);
    expect(() => dueDateFor(at('2026-06-01T00:00:00Z'), 1.5, 'hours', june)).toThrow(RangeError);
  });
});
