/**
 * @module Who a token belongs to, remembered in memory so that a signed-in request does not wait for a
 * database round trip first; kept true by the database's notifications (see `CallerCache`).
 */
import type { SignedIn } from '../domain/policy.js';
import type { Database } from './client.js';
import { findCallerByTokenHash } from './queries/users.js';

export const CALLERS_CHANNEL = 'catalogue_callers';

export interface CallerCacheOptions {
  /** Tokens remembered at most; the oldest entry goes first. */
  maxEntries?: number;
  /** How long an entry is trusted without any notification: a safety net, not the mechanism. */
  ttlMs?: number;
}

/** The caller behind a token hash, as `findCallerByTokenHash` answers it. */
export type KnownCaller = Omit<SignedIn, 'via'>;

interface Entry {
  caller: KnownCaller;
  expires: number;
}

/**
 * Triggers (migration 0007) notify `catalogue_callers` with the user concerned whenever a token, a user or
 * one of their loans changes, and every process forgets that user. While this process does not listen (at
 * start, or after its listening connection dropped and notifications may have been missed) nothing is
 * remembered and every lookup asks the database. A time limit bounds any entry should all else fail.
 */
export class CallerCache {
  readonly #database: Database;
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #hashesOfUser = new Map<number, Set<string>>();
  #listening = false;
  /**
   * Bumped by every notification: a lookup that was under way while one arrived may have read the state
   * from before it, so its answer is used but not remembered.
   */
  #generation = 0;

  constructor(database: Database, options: CallerCacheOptions = {}) {
    this.#database = database;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 60_000;
    database.listen(CALLERS_CHANNEL, {
      notified: (payload) => {
        const userId = Number(payload);
        if (Number.isInteger(userId)) this.forgetUser(userId);
        else this.forgetAll();
      },
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

  /**
   * The signed-in caller behind a token hash; `undefined` for a token that is unknown or revoked. A caller
   * remembered is answered at once, not in a promise: most requests come from callers seen a moment ago.
   */
  find(hash: string): KnownCaller | undefined | Promise<KnownCaller | undefined> {
    const entry = this.#entries.get(hash);
    if (entry !== undefined) {
      if (entry.expires > performance.now()) return entry.caller;
      this.#remove(hash, entry.caller.id);
    }
    return this.#load(hash);
  }

  async #load(hash: string): Promise<KnownCaller | undefined> {
    const generation = this.#generation;
    const caller = await findCallerByTokenHash(this.#database.db, { hash });
    // Unknown tokens are not remembered: a token created a moment later must work at once.
    if (caller !== undefined && this.#listening && generation === this.#generation) this.#remember(hash, caller);
    return caller;
  }

  /** Forgets every token of this user (a token, the user, or their loans changed). */
  forgetUser(userId: number): void {
    this.#generation++;
    for (const hash of this.#hashesOfUser.get(userId) ?? []) this.#entries.delete(hash);
    this.#hashesOfUser.delete(userId);
  }

  forgetAll(): void {
    this.#generation++;
    this.#entries.clear();
    this.#hashesOfUser.clear();
  }

  #remember(hash: string, caller: KnownCaller): void {
    if (this.#entries.size >= this.#maxEntries) {
      const [oldest, entry] = this.#entries.entries().next().value as [string, Entry];
      this.#remove(oldest, entry.caller.id);
    }
    this.#entries.set(hash, { caller, expires: performance.now() + this.#ttlMs });
    const hashes = this.#hashesOfUser.get(caller.id) ?? new Set();
    hashes.add(hash);
    this.#hashesOfUser.set(caller.id, hashes);
  }

  #remove(hash: string, userId: number): void {
    this.#entries.delete(hash);
    const hashes = this.#hashesOfUser.get(userId);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.#hashesOfUser.delete(userId);
  }
}
