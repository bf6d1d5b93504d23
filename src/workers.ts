/**
 * @module Several server processes on one port (node:cluster): the primary forks them, replaces one that
 * dies, and on SIGTERM/SIGINT has each finish its requests and stop, then exits with the worst exit code.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './log.js';

/** The first wait before replacing a worker that died; it doubles with each death in the last minute. */
const FIRST_RESTART_MS = 100;
/** The longest wait: a crash loop costs a fork every 10 s, not a busy loop. */
const LONGEST_RESTART_MS = 10_000;
const CRASH_WINDOW_MS = 60_000;
/** Workers end their requests within 10 s or exit themselves; this only catches one that hangs. */
const STOP_DEADLINE_MS = 15_000;

/** Forks `count` workers (this same entry point, run as a worker) and looks after them until stopped. */
export function superviseWorkers(count: number, log: Logger): void {
  const alive = new Set<Worker>();
  const restarts = new Set<NodeJS.Timeout>();
  const deaths: number[] = [];
  let serving = false;
  let stopping = false;
  let worst = 0;

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.once('listening', () => {
      serving = true;
    });
  };

  let forwarded: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    forwarded = signal;
    log.info('stopping', { signal, workers: alive.size });
    for (const timer of restarts) clearTimeout(timer);
    for (const worker of alive) worker.process.kill(signal);
    if (alive.size === 0) process.exit(worst);
    setTimeout(() => {
      log.error('workers still running after 15 s; killing them');
      for (const worker of alive) worker.process.kill('SIGKILL');
    }, STOP_DEADLINE_MS).unref();
  };

  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker);
    const pid = worker.process.pid;
    // A worker killed by a signal has no exit code. By the one passed on, it was still starting (its own
    // handler would have exited 0) and had nothing in flight; by any other, it did not end well.
    const status = code ?? (signal === forwarded ? 0 : 1);
    if (stopping) {
      worst = Math.max(worst, status);
      if (alive.size === 0) {
        log.info('stopped', { code: worst });
        process.exit(worst);
      }
      return;
    }
    if (!serving) {
      // None ever listened: start-up failed (the worker said why), and another would fail the same way.
      log.error('a worker could not start; stopping', { worker: pid, code, signal });
      worst = Math.max(status, 1);
      stop('SIGTERM');
      return;
    }
    const now = Date.now();
    deaths.push(now);
    while ((deaths[0] ?? now) < now - CRASH_WINDOW_MS) deaths.shift();
    const delayMs = Math.min(FIRST_RESTART_MS * 2 ** (deaths.length - 1), LONGEST_RESTART_MS);
    log.error('worker exited; replacing it', { worker: pid, code, signal, inMs: delayMs });
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delayMs);
    restarts.add(timer);
  });

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  log.info('starting workers', { workers: count });
  for (let i = 0; i < count; i++) fork();
}
