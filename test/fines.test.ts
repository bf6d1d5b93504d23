/**
 * Overdue fines, worked by hand: open days only (a closed Sunday and an emergency closing accrue nothing),
 * the grace days forgiven, the cap, a zero fine, and a week across Europe/London's change to summer time.
 */
import { describe, expect, it } from 'vitest';
import { branchCalendar } from '../src/domain/calendar.js';
import { type FineTerms, overdueFine } from '../src/domain/fines.js';
import { CurrencyMismatch, money } from '../src/domain/money.js';

const pence = (minor: number) => money(minor, 'GBP');
const at = (iso: string) => new Date(iso);

describe('overdue fines', () => {
  // London, June 2026 (summer time, UTC+1). Open Monday to Saturday; Wednesday 10th closed in an emergency.
  const branch = branchCalendar({
    timeZone: 'Europe/London',
    openWeekdays: [1, 2, 3, 4, 5, 6],
    closedDates: ['2026-06-10'],
  });
  // Due at the end of Monday 1 June, local time.
  const due = at('2026-06-01T22:59:59.999Z');
  const terms: FineTerms = { finePerDay: pence(25), graceDays: 2, fineCap: pence(200) };

  it('charges each open day beyond the grace days, capped, and nothing for a closed day', () => {
    // returned (UTC), open days overdue, days charged (beyond 2 of grace), fine in pence, capped
    const table: [string, number, number, number, boolean][] = [
      ['2026-06-01T21:00:00.000Z', 0, 0, 0, false], // Mon 22:00, before it was due
      ['2026-06-01T23:00:00.000Z', 1, 0, 0, false], // Tue 00:00: one day late, within the grace
      ['2026-06-03T11:00:00.000Z', 2, 0, 0, false], // Wed: the last day of grace
      ['2026-06-04T11:00:00.000Z', 3, 1, 25, false], // Thu
      ['2026-06-06T11:00:00.000Z', 5, 3, 75, false], // Sat
      ['2026-06-07T11:00:00.000Z', 5, 3, 75, false], // Sun: closed, nothing more
      ['2026-06-08T11:00:00.000Z', 6, 4, 100, false], // Mon
      ['2026-06-10T11:00:00.000Z', 7, 5, 125, false], // Wed 10th: the emergency closing, nothing more
      ['2026-06-11T11:00:00.000Z', 8, 6, 150, false], // Thu
      ['2026-06-13T11:00:00.000Z', 10, 8, 200, false], // Sat: exactly the cap
      ['2026-06-15T11:00:00.000Z', 11, 9, 200, true], // Mon: 225 cut to the cap
    ];
    for (const [returned, overdueDays, chargedDays, fine, capped] of table) {
      expect(overdueFine(terms, due, at(returned), branch), returned).toEqual({
        overdueDays,
        chargedDays,
        amount: pence(fine),
        capped,
      });
    }
  });

  it('without a cap the fine keeps growing; without grace every open day is charged', () => {
    const back = at('2026-06-15T11:00:00.000Z'); // 11 open days late
    expect(overdueFine({ ...terms, fineCap: 'none' }, due, back, branch).amount).toEqual(pence(225));
    expect(overdueFine({ ...terms, graceDays: 0, fineCap: 'none' }, due, back, branch).amount).toEqual(pence(275));
  });

  it('a rule with no fine charges nothing, however late', () => {
    const free: FineTerms = { finePerDay: pence(0), graceDays: 0, fineCap: 'none' };
    const fine = overdueFine(free, due, at('2027-06-01T11:00:00.000Z'), branch);
    expect(fine.chargedDays).toBe(fine.overdueDays);
    expect(fine.overdueDays).toBeGreaterThan(300);
    expect(fine).toMatchObject({ amount: pence(0), capped: false });
  });

  it('counts local days across the change to summer time', () => {
    // Open Monday to Saturday. Due at the end of Saturday 28 March 2026 (GMT); Sunday 29th, the 23-hour day
    // the clocks go forward, is closed.
    const spring = branchCalendar({ timeZone: 'Europe/London', openWeekdays: [1, 2, 3, 4, 5, 6] });
    const dueSaturday = at('2026-03-28T23:59:59.999Z');
    const daily: FineTerms = { finePerDay: pence(10), graceDays: 1, fineCap: 'none' };
    const table: [string, number, number][] = [
      ['2026-03-29T22:59:59.999Z', 0, 0], // Sun 23:59:59.999 BST: closed
      ['2026-03-29T23:00:00.000Z', 1, 0], // Mon 00:00 BST: one open day, the grace
      ['2026-03-31T08:00:00.000Z', 2, 10], // Tue
      ['2026-04-04T22:30:00.000Z', 6, 50], // Sat 23:30 BST
      ['2026-04-05T23:30:00.000Z', 7, 60], // Mon 6 April 00:30 BST (still Sunday in UTC)
    ];
    for (const [returned, overdueDays, fine] of table) {
      expect(overdueFine(daily, dueSaturday, at(returned), spring), returned).toMatchObject({
        overdueDays,
        amount: pence(fine),
      });
    }
  });

  it('refuses a cap in another currency and a grace that is not a whole number', () => {
    const late = at('2026-06-15T11:00:00.000Z');
    expect(() => overdueFine({ ...terms, fineCap: money(200, 'EUR') }, due, late, branch)).toThrow(CurrencyMismatch);
    expect(() => overdueFine({ ...terms, graceDays: -1 }, due, late, branch)).toThrow(RangeError);
  });
});
