/**
 * @module Who a token belongs to, remembered in memory so that a signed-in request does not wait for a
 * database round trip first; kept true by the database's notifications (see `CallerCache`).
 */
import { LRUCache } from 'lru-cache';
import type { SignedIn } from '../domain/policy.js';
import type { Database } from './client.js';
import { findCallerByTokenHash } from './queries/users.js';

export const CALLERS_CHANNEL = 'catalogue_callers';

export interface CallerCacheOptions {
  /** Tokens remembered at most; the least recently used goes first. */
  maxEntries?: number;
  /** How long an entry is trusted without any notification: a safety net, not the mechanism. */
  ttlMs?: number;
}

/** The caller behind a token hash, as `findCallerByTokenHash` answers it. */
export type KnownCaller = Omit<SignedIn, 'via'>;

/**
 * Triggers (migration 0007) notify `catalogue_callers` with the user concerned whenever a token, a user or
 * one of their loans changes, and every process forgets that user. While this process does not listen (at
 * start, or after its listening connection dropped and notifications may have been missed) nothing is
 * remembered and every lookup asks the database. A time limit bounds any entry should all else fail.
 */
export class CallerCache {
  readonly #database: Database;
  readonly #callers: LRUCache<string, KnownCaller>;
  /** The hashes remembered for each user, so that a notification about a user finds all their tokens. */
  readonly #hashesOfUser = new Map<number, Set<string>>();
  #listening = false;
  /**
   * Bumped by every notification: a lookup that was under way while one arrived may have read the state
   * from before it, so its answer is used but not remembered.
   */
  #generation = 0;

  constructor(database: Database, options: CallerCacheOptions = {}) {
    this.#database = database;
    this.#callers = new LRUCache({
      max: options.maxEntries ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      // The clock read on every lookup: lru-cache's default keeps it for 1 ms behind a timer, armed anew
      // on the request path each time it lapses, which costs more than the read it saves.
      ttlResolution: 0,
      // However an entry goes (evicted, expired, replaced, forgotten), the index lets go of it too.
      dispose: (caller, hash) => this.#unindex(hash, caller.id),
    });
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
    return this.#callers.get(hash) ?? this.#load(hash);
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
    const hashes = this.#hashesOfUser.get(userId);
    this.#hashesOfUser.delete(userId);
    for (const hash of hashes ?? []) this.#callers.delete(hash);
  }

  forgetAll(): void {
    this.#generation++;
    this.#hashesOfUser.clear();
    this.#callers.clear();
  }

  #remember(hash: string, caller: KnownCaller): void {
    this.#callers.set(hash, caller);
    const hashes = this.#hashesOfUser.get(caller.id) ?? new Set();
    hashes.add(hash);
    this.#hashesOfUser.set(caller.id, hashes);
  }

  #unindex(hash: string, userId: number): void {
    const hashes = this.#hashesOfUser.get(userId);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.#hashesOfUser.delete(userId);
  }
}
