/**
 * The install-time mends of postgres.js (scripts/patch-dependencies.js): its connection and query queue
 * keeps its contract, and its storage no longer grows with every query a long-running server answers
 * while the queue is never empty; a query settles through methods of its class, not closures of its own,
 * and still settles as before.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}

// The package exports only its entry point; the queue is read from the file `import 'postgres'` runs.
const entry = createRequire(import.meta.url).resolve('postgres'); // …/postgres/cjs/src/index.js
const esmQueue = join(dirname(dirname(dirname(entry))), 'src', 'queue.js');
const { default: makeQueue } = (await import(pathToFileURL(esmQueue).href)) as {
  default: <T>(initial?: T[]) => Queue<T>;
};

interface Query extends Promise<unknown> {
  active: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}
type QueryClass = new (strings: string[], args: unknown[], handler: (query: Query) => void) => Query;
const { Query } = (await import(pathToFileURL(join(dirname(esmQueue), 'query.js')).href)) as { Query: QueryClass };

describe("postgres.js's queue, as installed", () => {
  it('is first in, first out, and removes from the middle', () => {
    const queue = makeQueue<string>(['a']);
    queue.push('b');
    queue.push('c');
    queue.push('d');
    expect(queue.remove('c')).toBe('c');
    expect(queue.remove('c')).toBeNull();
    expect(queue.shift()).toBe('a');
    expect(queue.length).toBe(2);
    expect(queue.remove('a')).toBeNull();
    expect([queue.shift(), queue.shift(), queue.length]).toEqual(['b', 'd', 0]);
  });

  it('keeps its order across many turns while never empty', () => {
    const queue = makeQueue<number>();
    for (let i = 0; i < 5; i++) queue.push(i);
    const seen: number[] = [];
    for (let i = 5; i < 10_000; i++) {
      seen.push(queue.shift() as number);
      queue.push(i);
      if (i % 7 === 0) {
        queue.push(-i);
        expect(queue.remove(-i)).toBe(-i);
        expect(queue.remove(i - 5)).toBeNull(); // already taken
      }
    }
    expect(queue.length).toBe(5);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
  });

  it('does not keep a slot for every item that ever passed through it', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const queue = makeQueue<object>();
    const idle = [{}, {}];
    for (const connection of idle) queue.push(connection);
    gc();
    const before = process.memoryUsage().heapUsed;
    // A pool under steady load: one connection taken, another given back, never all of them.
    for (let i = 0; i < 1_000_000; i++) queue.push(queue.shift() as object);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Unmended, a million dead slots stay allocated (8 MB and more).
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    expect(queue.length).toBe(2);
  });
});

describe("postgres.js's query, as installed", () => {
  const started = (query: Query) => {
    query.active = true;
    return query;
  };
  const handler = () => {};

  it('settles through methods of its class, with no closures of its own', () => {
    const query = new Query(['select 1'], [], handler);
    expect(Object.hasOwn(query, 'resolve')).toBe(false);
    expect(Object.hasOwn(query, 'reject')).toBe(false);
  });

  it('is fulfilled by resolve and rejected by reject, and is no longer active either way', async () => {
    const answered = started(new Query(['select 1'], [], handler));
    answered.resolve([{ one: 1 }]);
    expect(answered.active).toBe(false);
    await expect(answered).resolves.toEqual([{ one: 1 }]);

    const failed = started(new Query(['select 1'], [], handler));
    const error = new Error('the server went away');
    failed.reject(error);
    expect(failed.active).toBe(false);
    await expect(failed).rejects.toBe(error);
  });
});
