/**
 * A semaphore at the database: listing reads run at most so many at once, the rest first come first served,
 * and a turn that does not come within the wait budget is a 503 with Retry-After, unless the work
 * already started answering and must finish.
 */
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../src/db/semaphore.js';
import { ServiceUnavailable } from '../src/domain/errors.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('turns', () => {
  it('runs at most `atOnce` together, and the waiting ones in the order they came', async () => {
    const turns = new Semaphore(2, 1_000);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        turns.run(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await later(10);
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a turn that does not come within the budget is refused with 503 and Retry-After; the queue goes on', async () => {
    const turns = new Semaphore(1, 50);
    const long = turns.run(() => later(200).then(() => 'long'));
    const refused = turns.run(async () => 'never').catch((error: unknown) => error);
    const patient = turns.run(async () => 'patient', { patiently: true });
    const error = await refused;
    expect(error).toBeInstanceOf(ServiceUnavailable);
    expect((error as ServiceUnavailable).status).toBe(503);
    expect((error as ServiceUnavailable).headers).toEqual({ 'Retry-After': '1' });
    expect(await long).toBe('long');
    expect(await patient).toBe('patient');
  });

  it('a failing work gives its turn back', async () => {
    const turns = new Semaphore(1, 100);
    await expect(turns.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await turns.run(async () => 'next')).toBe('next');
  });
});
