/**
 * @module Row counters kept by triggers in the writing transaction (see the `listing_counts` migration),
 * so an unfiltered listing's total is read in constant time instead of counting every row.
 */
import { bigint, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { authors } from './authors.js';

/**
 * Rows per collection (`books`, `authors`), spread over a few shards: a writer adds to the shard of its
 * backend, so concurrent writers rarely wait on one another's row lock; the total is the sum of the shards.
 */
export const collectionCounts = pgTable(
  'collection_counts',
  {
    collection: text('collection').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.collection, t.shard] })],
);

/** Books per author, for `/authors/{id}/books`; an author without a row has none. */
export const authorBookCounts = pgTable('author_book_counts', {
  authorId: integer('author_id')
    .primaryKey()
    .references(() => authors.id, { onDelete: 'cascade' }),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/** Books per publication year, for `filter=publication_year:Y`; a year without a row has none. */
export const yearBookCounts = pgTable('year_book_counts', {
  publicationYear: integer('publication_year').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/**
 * Rows per block of 4,096 ids (`id >> 12`) of a collection, sharded like `collectionCounts`: a page=N jump
 * in id order sums them to find the block its first item is in (migration 0039).
 */
export const collectionBlockCounts = pgTable(
  'collection_block_counts',
  {
    collection: text('collection').notNull(),
    block: integer('block').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.collection, t.block, t.shard] })],
);
