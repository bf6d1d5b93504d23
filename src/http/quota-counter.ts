/**
 * @module Where a caller's spending is counted: the interface, and the count kept in this process alone,
 * in fixed windows. PGlite uses it (one process by construction), and the shared count falls back on it.
 */
import type { RateKind, RatePolicy } from '../domain/rate-limits.js';

/** The caller's window after counting. */
export interface QuotaSpent {
  /** Requests counted in the window, these included. */
  used: number;
  /** Whole seconds until the window turns, at least 1. */
  resetSeconds: number;
}

/** A count whose window turns in `endsInMs`, as the `RateLimit` header and `Retry-After` give it. */
export function quotaSpent(used: number, endsInMs: number): QuotaSpent {
  return { used, resetSeconds: Math.max(1, Math.ceil(endsInMs / 1000)) };
}

/** Counts requests against a caller's quota. */
export interface QuotaCounter {
  /** Counts one request of `kind` by `caller` in their current window, starting one if none is open. */
  count(caller: string, kind: RateKind, policy: RatePolicy): QuotaSpent | Promise<QuotaSpent>;
}

interface Window {
  endsAt: number;
  used: number;
}

/** Above this many tracked windows, those that have ended are swept out before adding another. */
const SWEEP_ABOVE = 10_000;

/** Counts in a Map: exact for one process, and nothing shared with others. */
export class ProcessQuotaCounter implements QuotaCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  count(caller: string, kind: RateKind, policy: RatePolicy): QuotaSpent {
    const key = `${kind}\u0000${caller}`;
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now >= window.endsAt) {
      if (!window && this.windows.size >= SWEEP_ABOVE) this.sweep(now);
      window = { endsAt: now + policy.windowSeconds * 1000, used: 0 };
      this.windows.set(key, window);
    }
    window.used++;
    return quotaSpent(window.used, window.endsAt - now);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.endsAt) this.windows.delete(key);
  }
}
