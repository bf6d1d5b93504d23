/**
 * @module What the reliability suite measured, printed as one line per figure with the bound it is held to,
 * so that a run's output is its report.
 */
import { readFileSync } from 'node:fs';

export function reportFigure(name: string, value: number, unit: string, bound: string): void {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  process.stdout.write(`figure [${database}] ${name}: ${Math.round(value * 10) / 10} ${unit} (${bound})\n`);
}

/** A process's resident memory now, in MiB, from /proc. */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kib / 1024;
}

/** Samples a process's resident memory every few milliseconds until stopped; answers the peak. */
export function watchPeakMemory(pid: number): { stop(): number } {
  let peak = residentMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, residentMiB(pid));
    } catch {
      // The process ended; the peak so far stands.
    }
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** The q-quantile (0..1) of some durations. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
