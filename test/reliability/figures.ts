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

/** CPU time a process has used so far, in clock ticks (user + system, from /proc). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until a process is idle (under 10% of a core over two samples), e.g. until streams to clients
 * that stopped reading have filled their sockets and paused; at most `maxMs`.
 */
export async function waitUntilIdle(pid: number, maxMs = 60_000): Promise<void> {
  const started = Date.now();
  let quiet = 0;
  let last = cpuTicks(pid);
  while (quiet < 2 && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuTicks(pid);
    quiet = now - last <= 2 ? quiet + 1 : 0;
    last = now;
  }
}
