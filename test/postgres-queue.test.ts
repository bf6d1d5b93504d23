/**
 * The queue postgres.js keeps its connections in (patches/postgres+3.4.9.patch, item 4): a pool whose every
 * connection is busy takes one with `shift` and puts it back with `remove` and `push` for each query it
 * sends. The array `remove` searches must stay the size of the pool, however many queries went through:
 * released, it kept a slot per query and searched them all, so a server slowed down the longer it ran.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}

const queueModule = pathToFileURL(join(import.meta.dirname, '..', 'node_modules', 'postgres', 'src', 'queue.js')).href;
const makeQueue = async <T>(): Promise<Queue<T>> =>
  ((await import(queueModule)) as { default: <U>(initial?: U[]) => Queue<U> }).default<T>();

const indexOf = Array.prototype.indexOf;
afterEach(() => {
  Array.prototype.indexOf = indexOf;
});

/** The longest array searched for one of `items` while `work` runs. */
function longestSearched(items: readonly object[], work: () => void): number {
  let longest = 0;
  Array.prototype.indexOf = function (this: unknown[], x: unknown, from?: number) {
    if (items.includes(x as object)) longest = Math.max(longest, this.length - (from ?? 0));
    return indexOf.call(this, x, from);
  };
  try {
    work();
  } finally {
    Array.prototype.indexOf = indexOf;
  }
  return longest;
}

describe("postgres.js's queue of busy connections", () => {
  it('searches no more than a pool of slots after 100,000 queries sent to busy connections', async () => {
    const busy = await makeQueue<{ id: number }>();
    const connections = Array.from({ length: 10 }, (_, id) => ({ id }));
    for (const connection of connections) busy.push(connection);
    const longest = longestSearched(connections, () => {
      for (let query = 0; query < 100_000; query++) {
        // handler: `go(busy.shift(), query)`, then `move(c, busy)`: remove (not found) and push.
        const connection = busy.shift() as { id: number };
        expect(busy.remove(connection)).toBeNull();
        busy.push(connection);
        // Now and then a connection finishes its queries and leaves for `open`, and comes back.
        if (query % 7 === 0) {
          const leaving = connections[query % connections.length] as { id: number };
          expect(busy.remove(leaving)).toBe(leaving);
          busy.push(leaving);
        }
      }
    });
    expect(busy.length).toBe(connections.length);
    expect(longest).toBeLessThan(4096);
  });

  it('still answers its elements first in, first out, with the ones removed left out', async () => {
    const queue = await makeQueue<{ n: number }>();
    const items = Array.from({ length: 5000 }, (_, n) => ({ n }));
    for (const item of items) queue.push(item);
    for (let n = 0; n < 3000; n++) expect(queue.shift()).toBe(items[n]);
    expect(queue.remove(items[10] as { n: number })).toBeNull();
    expect(queue.remove(items[4000] as { n: number })).toBe(items[4000]);
    const rest: number[] = [];
    while (queue.length > 0) rest.push((queue.shift() as { n: number }).n);
    expect(rest).toEqual(
      items
        .slice(3000)
        .filter(({ n }) => n !== 4000)
        .map(({ n }) => n),
    );
  });
});
