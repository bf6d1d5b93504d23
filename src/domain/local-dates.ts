/**
 * @module Local dates (`YYYY-MM-DD`) in an IANA time zone, and the instants where they begin, with Intl alone:
 * dates are counted as days of the proleptic Gregorian calendar, and a zone's offset at an instant is read
 * from `Intl.DateTimeFormat`, so a day of 23 or 25 hours (a DST change) is still one day.
 */
import { LRUCache } from 'lru-cache';

/** A calendar date as the library's people write it, `YYYY-MM-DD`. */
export type LocalDate = string;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `name` is a time zone Intl knows (an IANA name such as `Europe/London`, or `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '' || name !== name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A time zone's name as Intl spells it (`europe/london` is `Europe/London`), for one Intl knows. */
export function canonicalTimeZone(name: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
}

/** Days since 1970-01-01 of a date, or `undefined` when it is not a real `YYYY-MM-DD` date. */
export function dayNumber(date: LocalDate): number | undefined {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

/** The day number of a date known to be valid (a programming error otherwise). */
export function dayOf(date: LocalDate): number {
  const day = dayNumber(date);
  if (day === undefined) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return day;
}

/** The date of a day number. */
export function dateOfDay(day: number): LocalDate {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday of a day number: 1 is Monday, 7 Sunday (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock time at `instant` in the zone, as if it were UTC: milliseconds since the epoch. */
function wallTime(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const ms = ((instant % 1000) + 1000) % 1000;
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The zone's offset from UTC at `instant`, in milliseconds (positive east of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  return wallTime(instant, timeZone) - instant;
}

/** The local date of an instant in the zone. */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  return dateOfDay(localDayOf(instant.getTime(), timeZone));
}

/** The local day number of an instant (milliseconds) in the zone. */
export function localDayOf(instant: number, timeZone: string): number {
  const last = lastDayOf.get(timeZone);
  if (last && instant >= last.start && instant < last.end) return last.day;
  const day = Math.floor(wallTime(instant, timeZone) / DAY_MS);
  lastDayOf.set(timeZone, { day, start: startOfLocalDay(day, timeZone), end: startOfLocalDay(day + 1, timeZone) });
  return day;
}

/**
 * The local day last found in each zone, with the instants it spans: most instants asked about are today's
 * (a read's "now"), which then need no `formatToParts`.
 */
const lastDayOf = new Map<string, { day: number; start: number; end: number }>();

/**
 * The first instant of a local day in the zone. Its midnight is tried with the offsets in force a day
 * before and a day after (a zone changes its offset at most once within a day); of those that are that
 * midnight, the earlier (a midnight that happens twice). A midnight skipped by a change (clocks going
 * forward at 00:00) means the day begins at the change, which the earlier offset finds.
 */
export function startOfLocalDay(day: number, timeZone: string): number {
  const key = `${timeZone} ${day}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = findStartOfLocalDay(day, timeZone);
    dayStarts.set(key, start);
  }
  return start;
}

/**
 * Day starts already found, by zone and day. Each costs a few `formatToParts` calls, and every signed-in
 * book read asks for the end of the same few days (its borrow control's due date) all day long.
 */
const dayStarts = new LRUCache<string, number>({ max: 4096 });

function findStartOfLocalDay(day: number, timeZone: string): number {
  const midnight = day * DAY_MS;
  const before = offsetAt(midnight - DAY_MS, timeZone);
  const after = offsetAt(midnight + DAY_MS, timeZone);
  const candidates = [midnight - before, midnight - after].filter(
    (instant) => wallTime(instant, timeZone) === midnight,
  );
  return candidates.length > 0 ? Math.min(...candidates) : midnight - before;
}

/** The last millisecond of a local day in the zone: one before the next day begins. */
export function endOfLocalDay(day: number, timeZone: string): number {
  return startOfLocalDay(day + 1, timeZone) - 1;
}
