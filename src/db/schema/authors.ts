/** @module The `authors` table. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { NAME_MAX_LENGTH } from '../../domain/limits.js';
import { foldedWords } from './folded-words.js';
import { ginIndex } from './gin-index.js';
import { tsvector } from './tsvector.js';

export const authors = pgTable(
  'authors',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** Bumped by every update; the ETag carries it so that `If-Match` is checked by the UPDATE itself. */
    version: integer('version').notNull().default(1),
    /**
     * Full-text vector of the name, accents folded (`catalogue_simple`: simple + unaccent, see the
     * `search_words` migration) and romanisation's marks left out (`catalogue_unmark`, the
     * `romanisation_marks` migration); not stemmed, because names are not English words.
     */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('catalogue_simple'::regconfig, catalogue_unmark(name))`),
    /** The name's words in order as a search reads them (see `books.exactKey`). */
    exactKey: text('exact_key').generatedAlwaysAs(sql`catalogue_exact_key('catalogue_simple'::regconfig, name)`),
    /** The name as words (see `books.titleWords`). */
    nameWords: text('name_words').generatedAlwaysAs(foldedWords(sql.raw('name'))),
  },
  (t) => [
    check('authors_name_not_blank', sql`btrim(${t.name}) <> ''`),
    check('authors_name_length', sql`char_length(${t.name}) <= ${sql.raw(String(NAME_MAX_LENGTH))}`),
    // Both directions of the name sort, ties by id ascending (see books).
    index('authors_name_id_idx').on(t.name, t.id),
    index('authors_name_desc_id_idx').on(t.name.desc().nullsFirst(), t.id),
    ginIndex('authors_search_idx', t.search),
    index('authors_exact_key_idx').on(t.exactKey),
    // An imported record names its author; the name is looked up as `catalogue_name_key` compares names
    // (migration 0016): `J.R.R. Tolkien` and `J. R. R. Tolkien` are one author.
    index('authors_name_key_idx').on(sql`catalogue_name_key(${t.name})`),
  ],
);
