/**
 * @module Quotas counted in the database, so that every process on it spends from one count per caller,
 * within a small tolerance (docs/operations.md, "Rate limits"). A process adds its caller's requests to the
 * shared count in one upsert; between two, it may answer a few of that caller's requests on its own count:
 * at most a sixteenth of what the last upsert left of the quota, and for at most a second after it. Near
 * the end of a quota (fewer than sixteen left) every request is counted in the database before it is
 * answered, so refusals are decided there. With N processes a caller may get up to N sixteenths of a quota
 * more; a quota under sixteen is exact.
 *
 * The count is a guard, never a reason to refuse: when it cannot be made, the request is counted in this
 * process instead.
 */
import type { Db } from '../db/client.js';
import { codeOf } from '../db/errors.js';
import { spendQuota, sweepRateWindows, type WindowCount } from '../db/queries/rate-windows.js';
import type { RateKind, RatePolicy } from '../domain/rate-limits.js';
import type { Logger } from '../log.js';
import { ProcessQuotaCounter, type QuotaCounter, type QuotaSpent, quotaSpent } from './quota-counter.js';

/** How often a process removes ended windows: the table holds about two windows' callers at most. */
const SWEEP_EVERY_MS = 60_000;

/**
 * After a failed count, how long requests are counted here without asking the database: during an outage
 * one request a second waits for a count to fail, not every request.
 */
const RETRY_AFTER_FAILURE_MS = 1000;

/** Of what was left of a quota at the last upsert, the share a process may answer on its own count. */
const OWN_SHARE = 16;

/** A process's requests reach the shared count at the caller's first request this long after the last upsert. */
const UPSERT_AT_LEAST_EVERY_MS = 1000;

/** Above this many callers' windows, those that have ended are forgotten before another is added. */
const FORGET_ABOVE = 10_000;

/** What this process knows of a caller's window of one kind. */
interface Window {
  /** The shared count the last upsert answered. */
  counted: number;
  /** Requests in upserts still in flight. */
  inFlight: number;
  /** Requests answered on this process's count since, not yet in the database. */
  own: number;
  /** When the last upsert answered, and when the window turns (this process's clock; unknown until then). */
  countedAt: number;
  endsAt: number | undefined;
}

export class SharedQuotaCounter implements QuotaCounter {
  private readonly fallback: ProcessQuotaCounter;
  private readonly windows = new Map<string, Window>();
  /** While set, the database failed to count and is asked again only from this time on. */
  private retryAt: number | undefined;
  private nextSweepAt = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.fallback = new ProcessQuotaCounter(now);
  }

  async count(caller: string, kind: RateKind, policy: RatePolicy): Promise<QuotaSpent> {
    const now = this.now();
    if (this.retryAt !== undefined) {
      if (now < this.retryAt) return this.fallback.count(caller, kind, policy);
      // This request asks the database again; the others count here meanwhile rather than wait with it.
      this.retryAt = now + RETRY_AFTER_FAILURE_MS;
    }
    if (now >= this.nextSweepAt) this.sweep(now);
    const key = `${kind}\u0000${caller}`;
    const window = this.windowOf(key, now);
    if (this.mayAnswerAlone(window, policy, now)) {
      window.own++;
      return quotaSpent(window.counted + window.inFlight + window.own, (window.endsAt ?? now) - now);
    }
    // This request, and those answered here since the last upsert.
    const requests = 1 + window.own;
    window.own = 0;
    window.inFlight += requests;
    try {
      const spent = await spendQuota(this.db, { caller, kind, windowSeconds: policy.windowSeconds, requests });
      this.remember(key, window, spent, requests, policy);
      if (this.retryAt !== undefined) {
        this.retryAt = undefined;
        this.log.info('rate limits are counted in the database again');
      }
      return quotaSpent(spent.used, spent.endsInMs);
    } catch (error) {
      window.inFlight -= requests;
      // Logged once per failure spell, by its code alone as every database failure is: the query's
      // parameters name the caller.
      if (this.retryAt === undefined) {
        this.log.error('counting rate limits in the database failed; counting in this process until it answers', {
          code: codeOf(error),
        });
      }
      this.retryAt = this.now() + RETRY_AFTER_FAILURE_MS;
      return this.fallback.count(caller, kind, policy);
    }
  }

  /**
   * The caller's current window as this process knows it; a new one, not yet counted, when it knows none
   * or the one it knows has ended (what it answered alone then counted against that window, not the next).
   */
  private windowOf(key: string, now: number): Window {
    const known = this.windows.get(key);
    if (known && (known.endsAt === undefined || now < known.endsAt)) return known;
    if (!known && this.windows.size >= FORGET_ABOVE) this.forgetEnded(now);
    const window: Window = { counted: 0, inFlight: 0, own: 0, countedAt: Number.NEGATIVE_INFINITY, endsAt: undefined };
    this.windows.set(key, window);
    return window;
  }

  /**
   * Whether a request may be answered on this process's count: the last upsert answered recently, and what
   * this process has added since (answered alone, or in upserts still in flight) stays within its share of
   * what that upsert left.
   */
  private mayAnswerAlone(window: Window, policy: RatePolicy, now: number): boolean {
    const added = window.inFlight + window.own;
    const share = Math.floor((policy.limit - window.counted) / OWN_SHARE);
    return now - window.countedAt < UPSERT_AT_LEAST_EVERY_MS && added + 1 <= share;
  }

  /**
   * What an upsert answered: the newest count of the window. Upserts may answer out of order, and one made
   * before the database turned the window may answer after one that started the next.
   */
  private remember(key: string, sent: Window, spent: WindowCount, requests: number, policy: RatePolicy): void {
    sent.inFlight -= requests;
    if (this.windows.get(key) !== sent) return;
    const now = this.now();
    const endsAt = now + spent.endsInMs;
    // Two windows of a caller end a window's length apart; answers about one, within a round trip.
    const apart = (policy.windowSeconds * 1000) / 2;
    const turned = sent.endsAt === undefined || endsAt > sent.endsAt + apart;
    if (!turned && endsAt < (sent.endsAt as number) - apart) return;
    if (turned || spent.used >= sent.counted) {
      sent.counted = spent.used;
      sent.countedAt = now;
      sent.endsAt = endsAt;
    }
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) {
      const ended = window.endsAt === undefined ? window.inFlight === 0 : now >= window.endsAt;
      if (ended) this.windows.delete(key);
    }
  }

  /** In the background of a request: a failed sweep leaves ended windows to the next one. */
  private sweep(now: number): void {
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    sweepRateWindows(this.db).catch(() => {});
  }
}
