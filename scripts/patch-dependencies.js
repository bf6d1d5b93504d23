/**
 * @module Mends, at install (`postinstall`), defects of a dependency for which no fixed release exists.
 * Plain JavaScript: it runs before anything is built. Idempotent; a file that is neither the known
 * original nor already mended (a newer release) is left alone, with a notice.
 *
 * postgres.js 3.4.x:
 * - src/queue.js (the queue of connections and of waiting queries): `shift()` only moves an index forward
 *   and `remove()` searches the whole array from its start, dead slots included; the array is emptied only
 *   when the queue is. Under steady load some queue is never empty (always a connection idle, or always
 *   queries waiting), so the array grows by one slot per query and every query's `remove()` scans all of
 *   them: 32 clients on 8 connections spent 58% of their CPU there after 120,000 queries, and the cost
 *   keeps growing with the server's uptime. Mended: `remove()` searches the live slots only, and `shift()`
 *   drops the dead ones once they are at least half the array.
 * - src/query.js (a query, a promise): its constructor gave every query two closures of its own as
 *   `resolve` and `reject`. Under load, every query's objects (the query, its rows, its buffers) then
 *   outlived the young collection that came after it and were promoted, though nothing referred to them
 *   by the next full one: 32 clients of one connection promoted 1.7 MB at every young collection, against
 *   30 KB with the closures gone (`--trace-gc-nvp`; a server's read of a book promoted 550 KB against
 *   13 KB, and its collections took three times as long). Mended: `resolve` and `reject` are methods of
 *   the class, over the promise's own resolving functions kept on the query. (A cursor still replaces them
 *   with closures of its own, per batch, as before.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const queueFiles = ['src', 'cjs/src', 'cf/src'].map((dir) => join(root, 'node_modules/postgres', dir, 'queue.js'));

const original = `    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }

      return out
    }`;

const mended = `    remove: (x) => {
      // mended by catalogue (scripts/patch-dependencies.js): only live slots are searched
      const at = xs.indexOf(x, index)
      return at === -1
        ? null
        : (xs.splice(at, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
        if (index >= 64 && index * 2 >= xs.length) {
          xs = xs.slice(index)
          index = 0
        }
      }

      return out
    }`;

const queryFiles = ['src', 'cjs/src', 'cf/src'].map((dir) => join(root, 'node_modules/postgres', dir, 'query.js'));

/** Each place in query.js, as released and as mended. */
const queryMends = [
  [
    `    this.resolve = x => (this.active = false, resolve(x))
    this.reject = x => (this.active = false, reject(x))`,
    `    // mended by catalogue (scripts/patch-dependencies.js): resolve and reject are methods, not closures
    this.settle = resolve
    this.fail = reject`,
  ],
  [
    `  get origin() {`,
    `  resolve(x) {
    this.active = false
    this.settle(x)
  }

  reject(x) {
    this.active = false
    this.fail(x)
  }

  get origin() {`,
  ],
];

mend(queueFiles, [[original, mended]], 'the postgres.js queue');
mend(queryFiles, queryMends, 'the postgres.js query');

/** Replaces every original of `places` in each of `files`, or none when any is missing (a release not known). */
function mend(files, places, what) {
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (places.every(([, after]) => text.includes(after))) continue;
    if (!places.every(([before]) => text.includes(before))) {
      process.stderr.write(`${file}: not ${what} this script mends; left as it is\n`);
      continue;
    }
    writeFileSync(
      file,
      places.reduce((mendedText, [before, after]) => mendedText.replace(before, after), text),
    );
  }
}
