/**
 * @module Mends, at install (`postinstall`), a defect of a dependency for which no fixed release exists.
 * Plain JavaScript: it runs before anything is built. Idempotent; a file that is neither the known
 * original nor already mended (a newer release) is left alone, with a notice.
 *
 * postgres.js 3.4.x, src/queue.js (the queue of connections and of waiting queries): `shift()` only moves
 * an index forward and `remove()` searches the whole array from its start, dead slots included; the array
 * is emptied only when the queue is. Under steady load some queue is never empty (always a connection
 * idle, or always queries waiting), so the array grows by one slot per query and every query's `remove()`
 * scans all of them: 32 clients on 8 connections spent 58% of their CPU there after 120,000 queries, and
 * the cost keeps growing with the server's uptime. Mended: `remove()` searches the live slots only, and
 * `shift()` drops the dead ones once they are at least half the array.
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

for (const file of queueFiles) {
  if (!existsSync(file)) continue;
  const text = readFileSync(file, 'utf8');
  if (text.includes(mended)) continue;
  if (!text.includes(original)) {
    process.stderr.write(`${file}: not the postgres.js queue this script mends; left as it is\n`);
    continue;
  }
  writeFileSync(file, text.replace(original, mended));
}
