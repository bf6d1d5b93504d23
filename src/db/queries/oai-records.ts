/**
 * @module Reads of the harvestable records (`oai_records`, kept by triggers on the change feed): pages in
 * (datestamp, book id) order after a keyset position, each one range of one index, so a page deep in a
 * harvest costs what the first does.
 */
import { and, asc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { BookMetadata, HarvestRecord } from '../../domain/harvest-record.js';
import type { Db } from '../client.js';
import { books, oaiRecords } from '../schema/index.js';
import { bookMetadataColumns } from './book-metadata.js';

/** The datestamp to the microsecond, in UTC: exact, so that a position read back is the position left. */
const datestamp = sql<string>`to_char(${oaiRecords.datestamp} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const headerColumns = { bookId: oaiRecords.bookId, datestamp: datestamp.as('datestamp'), deleted: oaiRecords.deleted };

/** The book's fields a metadata record is made from (null for a deleted book, which has no row). */
export interface HarvestPageParams {
  /** Records stamped at or after this timestamp. */
  from?: string | undefined;
  /** Records stamped before this timestamp. */
  until?: string | undefined;
  /** Records after this position (datestamp to the microsecond, book id). */
  after?: readonly [string, number] | undefined;
  limit: number;
  /** Read each book's metadata too (ListRecords), not only the headers (ListIdentifiers). */
  metadata: boolean;
}

/** Up to `limit` records in (datestamp, book id) order, within the bounds and after the position. */
export async function readHarvestPage(db: Db, params: HarvestPageParams): Promise<HarvestRecord[]> {
  const conditions: (SQL | undefined)[] = [
    params.from === undefined ? undefined : gte(oaiRecords.datestamp, sql`${params.from}::timestamptz`),
    params.until === undefined ? undefined : lt(oaiRecords.datestamp, sql`${params.until}::timestamptz`),
    params.after === undefined
      ? undefined
      : gt(
          sql`(${oaiRecords.datestamp}, ${oaiRecords.bookId})`,
          sql`(${params.after[0]}::timestamptz, ${params.after[1]}::integer)`,
        ),
  ];
  const order = [asc(oaiRecords.datestamp), asc(oaiRecords.bookId)];
  if (!params.metadata) {
    return db
      .select(headerColumns)
      .from(oaiRecords)
      .where(and(...conditions))
      .orderBy(...order)
      .limit(params.limit);
  }
  const rows = await db
    .select({ ...headerColumns, ...bookMetadataColumns })
    .from(oaiRecords)
    .leftJoin(books, eq(books.id, oaiRecords.bookId))
    .where(and(...conditions))
    .orderBy(...order)
    .limit(params.limit);
  return rows.map(withMetadata);
}

/** One book's record, deleted or not; `undefined` for a book that never was, or whose deletion is forgotten. */
export async function findHarvestRecord(db: Db, bookId: number): Promise<HarvestRecord | undefined> {
  const [row] = await db
    .select({ ...headerColumns, ...bookMetadataColumns })
    .from(oaiRecords)
    .leftJoin(books, eq(books.id, oaiRecords.bookId))
    .where(eq(oaiRecords.bookId, bookId));
  return row && withMetadata(row);
}

/** The oldest datestamp, to the microsecond; `undefined` while there are no records. */
export async function earliestDatestamp(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ datestamp })
    .from(oaiRecords)
    .orderBy(asc(oaiRecords.datestamp), asc(oaiRecords.bookId))
    .limit(1);
  return row?.datestamp;
}

type Row = Omit<HarvestRecord, 'book'> & { [K in keyof Omit<BookMetadata, 'id'>]: BookMetadata[K] | null };

function withMetadata(row: Row): HarvestRecord {
  const { bookId, datestamp: stamp, deleted, ...book } = row;
  // A record not deleted always has its book: both are written in the same transaction.
  if (deleted || book.title === null) return { bookId, datestamp: stamp, deleted: true };
  return { bookId, datestamp: stamp, deleted, book: { id: bookId, ...(book as Omit<BookMetadata, 'id'>) } };
}
