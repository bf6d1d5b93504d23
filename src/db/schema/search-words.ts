/** @module The `search_words` table: the catalogue's own words, which misspelt search words are corrected to. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Every word of a title or an author's name, folded (lower case, accents removed: `catalogue_fold`), with
 * how many books' titles and authors' names have it. Kept by the writing transaction's triggers (see the
 * `search_words` migration), so every process corrects against the same words; a word no title or name
 * has any more is removed. Words with digits or hyphens are left out: they are never corrected.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
    inTitles: integer('in_titles').notNull().default(0),
    inNames: integer('in_names').notNull().default(0),
  },
  (t) => [
    check('search_words_counted', sql`${t.inTitles} >= 0 and ${t.inNames} >= 0`),
    // Trigram distance finds the words near a misspelt one (`<->`) and near a typed prefix (`<<->`).
    index('search_words_trgm_idx').using('gist', t.word.op('gist_trgm_ops')),
    // The words a typed prefix begins (`like 'prefix%'`), whatever the database's collation.
    index('search_words_prefix_idx').on(t.word.op('text_pattern_ops')),
  ],
);
