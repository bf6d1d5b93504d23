/**
 * @module A transaction on the driver itself, for what drizzle does not offer: `COPY … FROM STDIN` into a
 * table (postgres.js's writable stream; on PGlite, `COPY … FROM '/dev/blob'` with the rows as a blob), and
 * plain SQL text with positional parameters. Bulk imports write through it.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Sql, TransactionSql } from 'postgres';
import type { Db } from './db.js';

export interface BulkTransaction {
  /** Rows of one statement, its parameters `$1`, `$2`, …. */
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Loads rows in COPY's text format (tab-separated, `\N` for null, one row a line) into `table (columns)`. */
  copyIn(table: string, columns: readonly string[], text: string): Promise<void>;
  /** Runs `work` in a savepoint: rolled back to it, and the error rethrown, when `work` throws. */
  savepoint<T>(work: (tx: BulkTransaction) => Promise<T>): Promise<T>;
}

/** Runs `work` in one transaction on the driver under `db`: committed when it resolves, rolled back when it throws. */
export async function bulkTransaction<T>(db: Db, work: (tx: BulkTransaction) => Promise<T>): Promise<T> {
  const client = driverOf(db);
  if (isPglite(client)) {
    return client.transaction((tx) => work(pgliteTransaction(tx)));
  }
  return client.begin((tx) => work(postgresTransaction(tx))) as Promise<T>;
}

/** The driver's own client under `db`: PGlite, or postgres.js's pool. */
export function driverOf(db: Db): PGlite | Sql {
  return (db as unknown as { $client: PGlite | Sql }).$client;
}

export function isPglite(client: PGlite | Sql): client is PGlite {
  return typeof (client as PGlite).transaction === 'function';
}

function pgliteTransaction(tx: Transaction): BulkTransaction {
  const self: BulkTransaction = {
    async query<T>(text: string, params: readonly unknown[] = []) {
      return (await tx.query<T>(text, [...params])).rows;
    },
    async copyIn(table, columns, text) {
      await tx.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([text]) });
    },
    async savepoint(work) {
      await tx.query('savepoint bulk_work');
      try {
        const result = await work(self);
        await tx.query('release savepoint bulk_work');
        return result;
      } catch (error) {
        await tx.query('rollback to savepoint bulk_work');
        throw error;
      }
    },
  };
  return self;
}

function postgresTransaction(tx: TransactionSql): BulkTransaction {
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      return (await tx.unsafe(text, params as never[])) as unknown as T[];
    },
    async copyIn(table, columns, text) {
      const stream = await tx.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable();
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.once('finish', resolve);
        stream.end(text);
      });
    },
    // postgres.js's own: a statement that fails inside `begin` outside of one fails the whole transaction,
    // even when the error is caught and rolled back to a savepoint made by hand.
    savepoint<T>(work: (tx: BulkTransaction) => Promise<T>) {
      return tx.savepoint((inner) => work(postgresTransaction(inner))) as Promise<T>;
    },
  };
}
