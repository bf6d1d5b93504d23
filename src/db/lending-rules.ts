/**
 * @module The lending rules remembered in memory, so that a book read decides its borrow and hold controls
 * without asking the database; kept true by the database's notifications (see `LendingRulesCache`). The
 * borrow, renewal and hold transactions never read them: they decide from the database under their locks.
 */
import type { LoanRule } from '../domain/lending-rules.js';
import type { Database } from './client.js';
import { listLendingRules } from './queries/lending-rules.js';

export const LENDING_RULES_CHANNEL = 'catalogue_lending_rules';

export interface LendingRulesCacheOptions {
  /** How long the rules are trusted without any notification: a safety net, not the mechanism. */
  ttlMs?: number;
  /** The clock the time limit reads (milliseconds). */
  now?: () => number;
}

/**
 * Triggers (migration 0031) notify `catalogue_lending_rules` after any statement that changes the rules or
 * the names of their scope (branches, patron categories, item types), and every process forgets the rules.
 * While this process does not listen (at start, or after its listening connection dropped and notifications
 * may have been missed) nothing is remembered and every read asks the database. A time limit bounds the
 * rules remembered should all else fail; a write through this process's API forgets them at once too
 * (`forgetAll`), so that its next read does not wait for the notification.
 */
export class LendingRulesCache {
  readonly #database: Database;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #rules: readonly LoanRule[] | undefined;
  #readAt = 0;
  /** One read at a time: the reads that find nothing remembered while it runs share it. */
  #reading: Promise<readonly LoanRule[]> | undefined;
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

  /** Every lending rule, with the names of its scope: at once when remembered, else in a promise. */
  rules(): readonly LoanRule[] | Promise<readonly LoanRule[]> {
    if (this.#rules !== undefined && this.#now() - this.#readAt < this.#ttlMs) return this.#rules;
    this.#reading ??= this.#read();
    return this.#reading;
  }

  async #read(): Promise<readonly LoanRule[]> {
    const generation = this.#generation;
    const readAt = this.#now();
    try {
      const rules = await listLendingRules(this.#database.db);
      if (this.#listening && generation === this.#generation) {
        this.#rules = rules;
        this.#readAt = readAt;
      }
      return rules;
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
