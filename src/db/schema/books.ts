/** @module The `books` table. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { TITLE_MAX_LENGTH, YEAR_MAX, YEAR_MIN } from '../../domain/limits.js';
import { authors } from './authors.js';
import { tsvector } from './tsvector.js';

export const books = pgTable(
  'books',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    publicationYear: integer('publication_year').notNull(),
    // RESTRICT: an author with books cannot disappear under them (DELETE /authors/{id} answers 409).
    authorId: integer('author_id')
      .notNull()
      .references(() => authors.id, { onDelete: 'restrict' }),
    /** Bumped by every update; the ETag carries it so that `If-Match` is checked by the UPDATE itself. */
    version: integer('version').notNull().default(1),
    /**
     * Title (weight A) and author name (weight B), kept by triggers (see the `books_search` migration):
     * a generated column cannot read another table, and one indexed vector lets "tolkien hobbit" match
     * across both.
     */
    search: tsvector('search').notNull().default(sql`''::tsvector`),
    /**
     * The author's name, kept by the same triggers (see the `author_name_on_books` migration): every
     * listing and every read shows it as the `author` link's title, and a streamed listing of a million
     * books spent half of PostgreSQL's time looking it up, one index probe per book.
     */
    authorName: text('author_name').notNull().default(''),
    /**
     * Copies not withdrawn, and those on the shelf for anyone (not lent, not set aside for a hold). Kept by
     * the circulation transactions, which lock this row (`settle_circulation`): a listing filters and sorts
     * by them with an index. A new book comes with one copy (a trigger adds it), as every book had one before.
     */
    copiesTotal: integer('copies_total').notNull().default(1),
    copiesAvailable: integer('copies_available').notNull().default(1),
  },
  (t) => [
    check('books_title_not_blank', sql`btrim(${t.title}) <> ''`),
    check('books_title_length', sql`char_length(${t.title}) <= ${sql.raw(String(TITLE_MAX_LENGTH))}`),
    check(
      'books_publication_year_range',
      sql`${t.publicationYear} between ${sql.raw(String(YEAR_MIN))} and ${sql.raw(String(YEAR_MAX))}`,
    ),
    // Each sortable field in both directions, ties by id ascending (the listing's tie-break), so a page
    // or a keyset cursor reads only the rows it answers with. Descending id is the primary key backwards.
    // NULLS FIRST is what ORDER BY … DESC means; an index ordered otherwise would not serve it.
    index('books_title_id_idx').on(t.title, t.id),
    index('books_title_desc_id_idx').on(t.title.desc().nullsFirst(), t.id),
    index('books_publication_year_id_idx').on(t.publicationYear, t.id),
    index('books_publication_year_desc_id_idx').on(t.publicationYear.desc().nullsFirst(), t.id),
    index('books_author_id_id_idx').on(t.authorId, t.id),
    index('books_author_id_desc_id_idx').on(t.authorId.desc().nullsFirst(), t.id),
    index('books_search_idx').using('gin', t.search),
    index('books_copies_available_id_idx').on(t.copiesAvailable, t.id),
    index('books_copies_available_desc_id_idx').on(t.copiesAvailable.desc().nullsFirst(), t.id),
    check('books_copies_counted', sql`${t.copiesAvailable} between 0 and ${t.copiesTotal}`),
  ],
);
