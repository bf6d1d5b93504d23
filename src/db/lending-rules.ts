/**
 * @module The lending rules and the branches' calendars remembered in memory, so that a book read decides
 * its borrow and hold controls (and the due date a borrow would give) without asking the database; kept true by the database's notifications (see `LendingRulesCache`). The
 * borrow, renewal and hold transactions never read them: they decide from the database under their locks.
 */
import { type BranchCalendar, branchCalendar } from '../domain/calendar.js';
import type { LoanRule } from '../domain/lending-rules.js';
import type { Database } from './client.js';
import { listBranchCalendars, type StoredBranchCalendar } from './queries/branch-calendars.js';
import { listLendingRules } from './queries/lending-rules.js';

/** The rules and the branches' calendars, as remembered together. */
export class RememberedLending {
  readonly rules: readonly LoanRule[];
  readonly #stored: Map<number, StoredBranchCalendar>;
  readonly #calendars = new Map<string, BranchCalendar>();

  constructor(rules: readonly LoanRule[], calendars: readonly StoredBranchCalendar[]) {
    this.rules = rules;
    this.#stored = new Map(calendars.map((calendar) => [calendar.id, calendar]));
  }

  /** The calendar of a branch in the library's time zone; `undefined` for a branch not known. */
  calendarOf(branchId: number, timeZone: string): BranchCalendar | undefined {
    const key = `${timeZone} ${branchId}`;
    let calendar = this.#calendars.get(key);
    if (!calendar) {
      const stored = this.#stored.get(branchId);
      if (!stored) return undefined;
      calendar = branchCalendar({ timeZone, openWeekdays: stored.openWeekdays, closedDates: stored.closedDates });
      this.#calendars.set(key, calendar);
    }
    return calendar;
  }
}

export const LENDING_RULES_CHANNEL = 'catalogue_lending_rules';

export interface LendingRulesCacheOptions {
  /** How long the rules are trusted without any notification: a safety net, not the mechanism. */
  ttlMs?: number;
  /** The clock the time limit reads (milliseconds). */
  now?: () => number;
}

/**
 * Triggers (migration 0031) notify `catalogue_lending_rules` after any statement that changes the rules, the
 * names of their scope (branches, patron categories, item types) or a branch's calendar (its open weekdays,
 * `branch_closures`), and every process forgets them.
 * While this process does not listen (at start, or after its listening connection dropped and notifications
 * may have been missed) nothing is remembered and every read asks the database. A time limit bounds the
 * rules remembered should all else fail; a write through this process's API forgets them at once too
 * (`forgetAll`), so that its next read does not wait for the notification.
 */
export class LendingRulesCache {
  readonly #database: Database;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #rules: RememberedLending | undefined;
  #readAt = 0;
  /** One read at a time: the reads that find nothing remembered while it runs share it. */
  #reading: Promise<RememberedLending> | undefined;
  #listening = false;
  /**
   * Bumped by every notification: a read that was under way while one arrived may have read the rules from
   * before it, so its answer is used but not remembered.
   */
  #generation = 0;

  constructor(database: Database, options: LendingRulesCacheOptions = {}) {
    this.#database = database;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    database.listen(LENDING_RULES_CHANNEL, {
      notified: () => this.forgetAll(),
      ready: () => {
        this.forgetAll();
        this.#listening = true;
      },
      lost: () => {
        this.#listening = false;
        this.forgetAll();
      },
    });
  }

  /** Every lending rule, with the names of its scope, and the branches' calendars: at once when remembered. */
  rules(): RememberedLending | Promise<RememberedLending> {
    if (this.#rules !== undefined && this.#now() - this.#readAt < this.#ttlMs) return this.#rules;
    this.#reading ??= this.#read();
    return this.#reading;
  }

  async #read(): Promise<RememberedLending> {
    const generation = this.#generation;
    const readAt = this.#now();
    try {
      const { db } = this.#database;
      const [rules, calendars] = await Promise.all([listLendingRules(db), listBranchCalendars(db)]);
      const remembered = new RememberedLending(rules, calendars);
      if (this.#listening && generation === this.#generation) {
        this.#rules = remembered;
        this.#readAt = readAt;
      }
      return remembered;
    } finally {
      if (generation === this.#generation) this.#reading = undefined;
    }
  }

  /** Forgets the rules: they, or the names of their scope, changed (or may have). */
  forgetAll(): void {
    this.#generation++;
    this.#rules = undefined;
    this.#reading = undefined;
  }
}
