/** @module The `books` table. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { PUBLISHER_MAX_LENGTH, SUBJECTS_MAX, TITLE_MAX_LENGTH, YEAR_MAX, YEAR_MIN } from '../../domain/limits.js';
import { authors } from './authors.js';
import { foldedWords } from './folded-words.js';
import { ginIndex } from './gin-index.js';
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
     * The title's words in order as a search reads them, one `_` for each word dropped between two (see
     * the `exact_keys` migration): a search whose text reads the same names this title exactly, found by
     * the index below at any size of catalogue.
     */
    exactKey: text('exact_key').generatedAlwaysAs(sql`catalogue_exact_key('catalogue_english'::regconfig, title)`),
    /**
     * The title as words: folded, each run of other characters one space. A suggestion is ranked by whether
     * it begins with what was typed, read this way, for every candidate of a prefix: stored, not computed
     * again for each of them (`unaccent` is most of a suggestion's time).
     */
    titleWords: text('title_words').generatedAlwaysAs(foldedWords(sql.raw('title'))),
    /**
     * Copies not withdrawn, and those on the shelf for anyone (not lent, not set aside for a hold). Kept by
     * the circulation transactions, which lock this row (`settle_circulation`): a listing filters and sorts
     * by them with an index. A new book comes with one copy (a trigger adds it), as every book had one before.
     */
    copiesTotal: integer('copies_total').notNull().default(1),
    copiesAvailable: integer('copies_available').notNull().default(1),
    /** ISBN-13, digits only; one book per ISBN (the unique index below). */
    isbn: text('isbn'),
    /** ISO 639-2/B code (what MARC 21 records carry). */
    language: text('language'),
    /** Subject headings, each once; none is an empty list. */
    subjects: text('subjects').array().notNull().default(sql`'{}'::text[]`),
    publisher: text('publisher'),
    /**
     * Where an imported book's record came from: its MARC source (003, or the one the importer named) and
     * control number there (001). A re-import finds the book by them (docs/records.md, "Import").
     */
    recordSource: text('record_source'),
    recordControlNumber: text('record_control_number'),
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
    ginIndex('books_search_idx', t.search),
    index('books_exact_key_idx').on(t.exactKey),
    index('books_copies_available_id_idx').on(t.copiesAvailable, t.id),
    index('books_copies_available_desc_id_idx').on(t.copiesAvailable.desc().nullsFirst(), t.id),
    check('books_copies_counted', sql`${t.copiesAvailable} between 0 and ${t.copiesTotal}`),
    check('books_isbn_13', sql`${t.isbn} ~ '^97[89][0-9]{10}$'`),
    check('books_language_code', sql`${t.language} ~ '^[a-z]{3}$'`),
    check('books_publisher_not_blank', sql`btrim(${t.publisher}) <> ''`),
    check('books_publisher_length', sql`char_length(${t.publisher}) <= ${sql.raw(String(PUBLISHER_MAX_LENGTH))}`),
    check('books_subjects_count', sql`cardinality(${t.subjects}) <= ${sql.raw(String(SUBJECTS_MAX))}`),
    // One book per ISBN, whatever writes at the same time: the second insert waits for the first and fails.
    // Partial: most books of an old collection have none, and `isbn = …` implies the predicate, so a
    // lookup (the filter, a bare ISBN searched) still uses it.
    uniqueIndex('books_isbn_key').on(t.isbn).where(sql`${t.isbn} is not null`),
    // `filter=language:…` in the listing's id order, walking only that language's books (a million books,
    // a few dozen languages: a scan in id order would read many rows for each it keeps of a rare one).
    index('books_language_id_idx').on(t.language, t.id).where(sql`${t.language} is not null`),
    // `filter=subject:…` (array containment): GIN finds a heading's books without reading the others.
    ginIndex('books_subjects_idx', t.subjects),
    // One book per imported record, whatever imports at the same time; both or neither are given.
    uniqueIndex('books_record_key')
      .on(t.recordSource, t.recordControlNumber)
      .where(sql`${t.recordControlNumber} is not null`),
    check('books_record_key_paired', sql`(${t.recordSource} is null) = (${t.recordControlNumber} is null)`),
  ],
);
