/**
 * @module Quotas counted in the database, so that every process on it spends from one count per caller.
 * The count is a guard, never a reason to refuse: when it cannot be made, the request is counted in this
 * process instead (see docs/operations.md, "Rate limits").
 */
import type { Db } from '../db/client.js';
import { codeOf } from '../db/errors.js';
import { spendQuota, sweepRateWindows } from '../db/queries/rate-windows.js';
import type { Logger } from '../log.js';
import { ProcessQuotaCounter, type QuotaCounter, type QuotaSpent } from './quota-counter.js';
import type { RateKind, RatePolicy } from './rate-limit.js';

/** How often a process removes ended windows: the table holds about two windows' callers at most. */
const SWEEP_EVERY_MS = 60_000;

/**
 * After a failed count, how long requests are counted here without asking the database: during an outage
 * one request a second waits for a count to fail, not every request.
 */
const RETRY_AFTER_FAILURE_MS = 1000;

export class SharedQuotaCounter implements QuotaCounter {
  private readonly fallback: ProcessQuotaCounter;
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
    try {
      const spent = await spendQuota(this.db, { caller, kind, windowSeconds: policy.windowSeconds });
      if (this.retryAt !== undefined) {
        this.retryAt = undefined;
        this.log.info('rate limits are counted in the database again');
      }
      return spent;
    } catch (error) {
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

  /** In the background of a request: a failed sweep leaves ended windows to the next one. */
  private sweep(now: number): void {
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    sweepRateWindows(this.db).catch(() => {});
  }
}
