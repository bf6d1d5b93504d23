/**
 * @module The `oai_records` table: where each book stands for OAI-PMH harvesters, one row per book and per
 * deleted book still in the change feed, kept by triggers on the feed (see the `oai_records` migration).
 */
import { boolean, index, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

export const oaiRecords = pgTable(
  'oai_records',
  {
    /** The book's id; no foreign key, because a deleted book keeps its row (a tombstone) for a while. */
    bookId: integer('book_id').primaryKey(),
    /**
     * The record's datestamp: the time of the book's last change, or of its author's last rename (the
     * record names the author). Stamped under the change feed's lock and never earlier than any stamp
     * before it, so rows committed later always sort after rows a harvester has already read.
     */
    datestamp: timestamp('datestamp', { withTimezone: true }).notNull(),
    /** The book was deleted: harvesters are told so until its `book.deleted` event leaves the feed. */
    deleted: boolean('deleted').notNull().default(false),
  },
  // A harvest reads in datestamp order, ties by book id: every page, at any depth, is one range of this index.
  (t) => [index('oai_records_datestamp_book_id_idx').on(t.datestamp, t.bookId)],
);
