/** A clock a test sets and moves: business time without sleeping. */
import type { Clock } from '../../src/domain/clock.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export interface FixedClock extends Clock {
  /** Stands the clock at `at`. */
  set(at: Date | string): void;
  /** Moves the clock on by `ms` milliseconds. */
  advance(ms: number): void;
}

/** A clock standing at `start` until set or moved. */
export function fixedClock(start: Date | string): FixedClock {
  let at = new Date(start).getTime();
  if (Number.isNaN(at)) throw new Error(`not an instant: ${String(start)}`);
  return {
    now: () => new Date(at),
    set(next) {
      at = new Date(next).getTime();
      if (Number.isNaN(at)) throw new Error(`not an instant: ${String(next)}`);
    },
    advance(ms) {
      at += ms;
    },
  };
}

/**
 * When a loan lent at `from` for `days` days is due at a branch open every day in UTC (the catalogue's
 * default time zone): the last millisecond of the UTC day `days` days on, as ISO 8601.
 */
export function dueInDays(from: Date | string | number, days: number): string {
  const lent = new Date(from);
  return new Date(Date.UTC(lent.getUTCFullYear(), lent.getUTCMonth(), lent.getUTCDate() + days + 1) - 1).toISOString();
}
