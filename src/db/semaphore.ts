/**
 * @module A semaphore for one kind of database work: at most so many at once, the rest waiting first come
 * first served, each for a bounded time. Listing reads take turns so that many or long ones never fill the
 * database (PGlite's single connection, or the PostgreSQL pool) ahead of short requests.
 */
import { ServiceUnavailable } from '../domain/errors.js';

export class Semaphore {
  #running = 0;
  readonly #waiting: Array<{ start: () => void; timer: NodeJS.Timeout | undefined }> = [];

  constructor(
    readonly atOnce: number,
    readonly waitBudgetMs: number,
  ) {}

  /**
   * Runs `work` in its turn; 503 with `Retry-After` if the turn does not come within the wait budget.
   * Work that has already begun answering (a stream's later batches) waits `patiently`: cutting it off
   * would leave its client a truncated document.
   */
  async run<T>(work: () => Promise<T>, options: { patiently?: boolean } = {}): Promise<T> {
    await this.#take(options.patiently ? undefined : this.waitBudgetMs);
    try {
      return await work();
    } finally {
      this.#give();
    }
  }

  #take(budgetMs: number | undefined): Promise<void> {
    if (this.#running < this.atOnce && this.#waiting.length === 0) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const turn = {
        start: () => {
          clearTimeout(turn.timer);
          this.#running++;
          resolve();
        },
        timer:
          budgetMs === undefined
            ? undefined
            : setTimeout(() => {
                this.#waiting.splice(this.#waiting.indexOf(turn), 1);
                reject(new ServiceUnavailable('the catalogue is busy with other listings; retry shortly', 1));
              }, budgetMs),
      };
      this.#waiting.push(turn);
    });
  }

  #give(): void {
    this.#running--;
    this.#waiting.shift()?.start();
  }
}
