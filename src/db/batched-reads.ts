/**
 * @module Reads of one row by key, gathered over a turn of the event loop into one statement. Under load
 * a server parses many requests in one turn (every socket the poll found readable), and each point read
 * was a query of its own: its own bind and execute, its own write to and read from the database's socket,
 * its own result handling in the driver. That was about 25 µs of a 62 µs `GET /books/{id}` on
 * PostgreSQL (server CPU, measured against the same server reading one id per query). Gathered, the reads
 * of a turn cost one statement, `… where id = any($1)`, whatever their number.
 *
 * A read alone still waits for nothing but the end of its turn (`setImmediate`). Each caller gets a row
 * object of its own, though two asked for the same key in one turn (callers add to the rows they get).
 * A statement that fails fails every read it carried, with its error, as each read alone would have.
 */

/** Reads rows by key: every row found among `keys`, in any order. */
export type ReadMany<Key, Row> = (keys: Key[]) => Promise<Row[]>;

/** Keys carried by one statement at most; a turn with more runs several. */
const MAX_KEYS_PER_READ = 500;

interface Waiter<Row> {
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

/** One read per key, gathered as described above; `keyOf` names the key of a row that `readMany` answers. */
export function batchedReads<Key, Row extends object>(
  readMany: ReadMany<Key, Row>,
  keyOf: (row: Row) => Key,
  maxKeys = MAX_KEYS_PER_READ,
): (key: Key) => Promise<Row | undefined> {
  let pending: Map<Key, Waiter<Row>[]> | undefined;

  const run = (batch: Map<Key, Waiter<Row>[]>) => {
    let reading: Promise<Row[]>;
    try {
      reading = readMany([...batch.keys()]);
    } catch (error) {
      reading = Promise.reject(error);
    }
    reading.then(
      (rows) => {
        for (const row of rows) {
          const key = keyOf(row);
          const waiters = batch.get(key);
          if (!waiters) continue;
          batch.delete(key);
          for (let i = 0; i < waiters.length; i++) {
            (waiters[i] as Waiter<Row>).resolve(i === 0 ? row : Object.assign({}, row));
          }
        }
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.resolve(undefined);
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  };

  const flush = () => {
    const gathered = pending as Map<Key, Waiter<Row>[]>;
    pending = undefined;
    let batch = new Map<Key, Waiter<Row>[]>();
    for (const [key, waiters] of gathered) {
      batch.set(key, waiters);
      if (batch.size === maxKeys) {
        run(batch);
        batch = new Map();
      }
    }
    if (batch.size > 0) run(batch);
  };

  return (key) =>
    new Promise<Row | undefined>((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setImmediate(flush);
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
}
