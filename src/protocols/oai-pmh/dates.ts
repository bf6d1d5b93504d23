/**
 * @module OAI-PMH's UTC dates (2.0, §3.3): `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ` in requests, datestamps
 * to the second in responses. A bound covers its whole day or second: `until=2026-11-26` takes in every
 * record of that day, as a datestamp shown to the second takes in its fractions.
 */

export type Granularity = 'day' | 'second';

/** A `from` or `until` argument, read. */
export interface DateBound {
  granularity: Granularity;
  /** Where its day or second begins, ISO 8601 in UTC with milliseconds. */
  start: string;
  /** Where the next day or second begins. */
  end: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LAST_MOMENT = Date.parse('9999-12-31T23:59:59.999Z');
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A date argument, or `undefined` when it is neither form or names no real day or second. */
export function parseDateBound(text: string): DateBound | undefined {
  const granularity: Granularity | undefined = DAY.test(text) ? 'day' : SECOND.test(text) ? 'second' : undefined;
  if (!granularity) return undefined;
  const iso = granularity === 'day' ? `${text}T00:00:00Z` : text;
  const start = new Date(iso);
  // Year 0 does not exist in PostgreSQL; 2026-02-30 would roll over into March, so it must read back as written.
  if (Number.isNaN(start.getTime()) || text.startsWith('0000') || !start.toISOString().startsWith(iso.slice(0, 19))) {
    return undefined;
  }
  const step = granularity === 'day' ? 86_400_000 : 1000;
  // The day after 9999-12-31 has a year of five digits, which neither ISO's common form nor a token holds.
  const end = Math.min(start.getTime() + step, LAST_MOMENT);
  return { granularity, start: start.toISOString(), end: new Date(end).toISOString() };
}

/** A timestamp to the second, as OAI-PMH writes datestamps: `2026-11-26T04:33:25Z` (fractions dropped). */
export function toSecond(timestamp: string | Date): string {
  const iso = typeof timestamp === 'string' ? timestamp : timestamp.toISOString();
  return `${iso.slice(0, 19)}Z`;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

/** Whether `text` is a UTC timestamp the database reads as written (what a resumption token carries). */
export function isUtcTimestamp(text: string): boolean {
  return TIMESTAMP.test(text) && parseDateBound(`${text.slice(0, 19)}Z`) !== undefined;
}
