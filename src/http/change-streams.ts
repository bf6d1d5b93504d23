/**
 * @module The live change streams of one process: bounded in number, so stalled clients cannot take the
 * process down, and woken by the NOTIFY the feed's triggers send at commit through any process.
 */
import type { ChangesConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { CHANGES_CHANNEL } from '../db/queries/changes.js';

export interface ChangeStreamOptions {
  /** Streams served at once; beyond them a request is answered 503 with `Retry-After`. */
  maxStreams: number;
  /** Milliseconds of silence after which a stream sends a keep-alive comment (and reads again). */
  keepAliveMs: number;
}

/** The bounds `CATALOGUE_CHANGES_MAX_STREAMS` and `CATALOGUE_CHANGES_KEEPALIVE_SECONDS` set. */
export function changeStreamOptions(changes: ChangesConfig): ChangeStreamOptions {
  return { maxStreams: changes.maxStreams, keepAliveMs: changes.keepAliveSeconds * 1000 };
}

/** Why a wait ended. */
export type Woken = 'notified' | 'timeout' | 'closed';

export class ChangeStreams {
  readonly options: ChangeStreamOptions;
  /** The primary, whose notifications wake the streams: what they tell of is there already. */
  readonly database: Database;
  #open = 0;
  #closed = false;
  #generation = 0;
  readonly #waiters = new Set<(why: Woken) => void>();
  readonly #closers = new Set<() => void>();

  constructor(database: Database, options: ChangeStreamOptions) {
    this.options = options;
    this.database = database;
    const wake = () => {
      this.#generation++;
      this.#wake('notified');
    };
    // After a dropped listening connection, notifications may have been missed: read again.
    database.listen(CHANGES_CHANNEL, { notified: wake, ready: wake, lost: () => {} });
  }

  /** Streams open now. */
  get open(): number {
    return this.#open;
  }

  /**
   * A place for one more stream, or `undefined` when the process serves as many as it may (or is
   * closing). `close` is called should the process close first; the answer frees the place, once.
   */
  admit(close: () => void): (() => void) | undefined {
    if (this.#closed || this.#open >= this.options.maxStreams) return undefined;
    this.#open++;
    this.#closers.add(close);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open--;
      this.#closers.delete(close);
    };
  }

  /**
   * Counts notifications: a stream notes it before each read, and a notification that arrives while the
   * stream is not waiting (reading, or writing to its client) is not lost on it.
   */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Resolves at the next notification (at once if there was one since `seen`, a `generation`), after
   * `ms`, on `signal`, or when the process closes its streams.
   */
  wait(ms: number, signal: AbortSignal, seen: number): Promise<Woken> {
    if (this.#closed || signal.aborted) return Promise.resolve('closed');
    if (seen !== this.#generation) return Promise.resolve('notified');
    return new Promise((resolve) => {
      const done = (why: Woken) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.#waiters.delete(done);
        resolve(why);
      };
      const aborted = () => done('closed');
      const timer = setTimeout(() => done('timeout'), ms);
      signal.addEventListener('abort', aborted, { once: true });
      this.#waiters.add(done);
    });
  }

  /** Ends every stream (the process is stopping) and admits no more. */
  close(): void {
    this.#closed = true;
    this.#wake('closed');
    for (const close of [...this.#closers]) close();
  }

  #wake(why: Woken): void {
    for (const waiter of [...this.#waiters]) waiter(why);
  }
}
