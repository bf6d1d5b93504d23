/**
 * @module Business time: when a loan is made, due and returned, when a hold is ready and expires. Read from
 * one clock the app is given (`AppOptions.clock`), and passed into SQL as a parameter, never the database's
 * `now()`, so that a test moving the clock moves every read and every step with it.
 */

/** Where business time comes from. */
export interface Clock {
  /** The instant it is now. */
  now(): Date;
}

/** The machine's clock: what a server runs on. */
export const systemClock: Clock = { now: () => new Date() };
