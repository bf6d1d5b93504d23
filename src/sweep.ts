/**
 * @module A sweep in the background of a server process: a piece of work run every so often (at start too,
 * unless told), never two at once in one process, its result or failure logged. The sweeps of ready holds,
 * lost loans and due notices are each one of these.
 */
import type { Logger } from './log.js';

/** What a sweep logs when it did something: a message and its fields. */
export interface SweepReport {
  message: string;
  fields: Record<string, unknown>;
}

export interface PeriodicSweep<Result> {
  /** Milliseconds between sweeps. */
  every: number;
  /** One sweep. */
  run: () => Promise<Result>;
  describe: {
    /** What the sweep does, as its failure is logged: "`queueing notices` failed". */
    doing: string;
    /** What a sweep that did something logs; `undefined` for one that found nothing to do. */
    done: (result: Result) => SweepReport | undefined;
  };
  /** Whether the first sweep runs at once, before the first interval has passed (true unless false). */
  atStart?: boolean;
}

/**
 * Starts sweeping; answers a function that stops it. A sweep still running when the next is due is not
 * doubled: that turn is skipped. The timer keeps no process alive. A failure is logged by its code only
 * (a database error's message may hold values).
 */
export function sweepPeriodically<Result>(sweep: PeriodicSweep<Result>, log: Logger): () => void {
  let running = false;
  const turn = () => {
    if (running) return;
    running = true;
    sweep
      .run()
      .then(
        (result) => {
          const report = sweep.describe.done(result);
          if (report) log.info(report.message, report.fields);
        },
        (error: unknown) => log.error(`${sweep.describe.doing} failed`, { code: (error as { code?: string }).code }),
      )
      .finally(() => {
        running = false;
      });
  };
  if (sweep.atStart !== false) turn();
  const timer = setInterval(turn, sweep.every);
  timer.unref();
  return () => clearInterval(timer);
}
