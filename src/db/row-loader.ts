/**
 * @module Reads of one row by key, gathered by DataLoader over a turn of the event loop into one statement
 * (`… where id = any($1)`): under load a turn parses many requests, and one statement for all their reads
 * costs the driver and the database far less than one each. No cache: every read sees the database as it is.
 */
import DataLoader from 'dataloader';

/** Reads rows by key: every row found among `keys`, in any order. */
export type ReadMany<Key, Row> = (keys: Key[]) => Promise<Row[]>;

/** Keys carried by one statement at most; a turn with more runs several. */
const MAX_KEYS_PER_READ = 500;

/**
 * A loader of one row per key: the keys of one turn (`setImmediate`), each once, go to `readMany`; each
 * caller gets a row object of its own (callers add to the rows they get), `undefined` for a key without a
 * row, or the statement's error.
 */
export function rowLoader<Key, Row extends object>(
  readMany: ReadMany<Key, Row>,
  keyOf: (row: Row) => Key,
  maxBatchSize = MAX_KEYS_PER_READ,
): DataLoader<Key, Row | undefined> {
  return new DataLoader<Key, Row | undefined>(
    async (keys) => {
      const rows = await readMany([...new Set(keys)]);
      const byKey = new Map<Key, Row>();
      for (const row of rows) byKey.set(keyOf(row), row);
      const given = new Set<Key>();
      return keys.map((key) => {
        const row = byKey.get(key);
        if (row === undefined || !given.has(key)) {
          given.add(key);
          return row;
        }
        return { ...row };
      });
    },
    { cache: false, maxBatchSize, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
}
