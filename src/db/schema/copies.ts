/** @module The `copies` table: the lendable items of a book, each with an optional barcode. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { BARCODE_MAX_LENGTH } from '../../domain/limits.js';
import { books } from './books.js';
import { branches, itemTypes } from './lending-lists.js';

export const copies = pgTable(
  'copies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // CASCADE: a book without circulation history goes with its copies; loans and holds RESTRICT the rest.
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    barcode: text('barcode'),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a librarian withdraws the copy; it stays as the history of its loans refers to it. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /** The copy's home branch, where it is shelved; the default branch unless named. */
    branchId: integer('branch_id')
      .notNull()
      .default(sql`default_branch()`)
      .references(() => branches.id, { onDelete: 'restrict' }),
    /**
     * Where the copy is now: its home branch until it is returned elsewhere; the branch it was sent from
     * while in transit. Named with `branch_id` when a copy is added (both default to the default branch).
     */
    locationBranchId: integer('location_branch_id')
      .notNull()
      .default(sql`default_branch()`)
      .references(() => branches.id, { onDelete: 'restrict' }),
    /** Where it is on its way to, while in transit (to a hold's pickup branch, or home); null otherwise. */
    transitToBranchId: integer('transit_to_branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    /** What kind of item it is, for the lending rules; the default item type unless named. */
    itemTypeId: integer('item_type_id')
      .notNull()
      .default(sql`default_item_type()`)
      .references(() => itemTypes.id, { onDelete: 'restrict' }),
  },
  (t) => [
    // Unique in the library, across withdrawn copies too: a barcode names one physical item forever.
    uniqueIndex('copies_barcode_idx').on(t.barcode),
    // The target of the loans' and holds' (copy_id, book_id) foreign keys: a loan's copy is of its book.
    unique('copies_id_book_id_key').on(t.id, t.bookId),
    index('copies_book_id_id_idx').on(t.bookId, t.id),
    // The lists' RESTRICT checks: deleting a branch or item type finds its copies without reading them all.
    index('copies_branch_id_idx').on(t.branchId),
    index('copies_item_type_id_idx').on(t.itemTypeId),
    index('copies_location_branch_id_idx').on(t.locationBranchId),
    // The copies in transit to a branch: what its desk expects to receive.
    index('copies_transit_to_branch_id_idx').on(t.transitToBranchId).where(sql`${t.transitToBranchId} is not null`),
    // In transit means on the way somewhere else; a withdrawn copy goes nowhere.
    check(
      'copies_transit_elsewhere',
      sql`${t.transitToBranchId} is null or ${t.transitToBranchId} <> ${t.locationBranchId}`,
    ),
    check('copies_withdrawn_not_in_transit', sql`${t.withdrawnAt} is null or ${t.transitToBranchId} is null`),
    check('copies_barcode_not_blank', sql`${t.barcode} is null or btrim(${t.barcode}) <> ''`),
    check(
      'copies_barcode_length',
      sql`${t.barcode} is null or char_length(${t.barcode}) <= ${sql.raw(String(BARCODE_MAX_LENGTH))}`,
    ),
  ],
);
