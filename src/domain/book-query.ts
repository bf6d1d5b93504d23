/**
 * @module A structured query of books, as a search protocol states it (SRU's CQL, translated by its
 * protocol): conditions on a book's words, title, author, ISBN and year, combined with and, or and not. What
 * each condition matches is decided in `db/queries/book-query.ts`; nothing here knows SQL or CQL.
 */

/** Where a condition on words looks: a book's words (title and author), its title, or its author's name. */
export type WordField = 'any' | 'title' | 'creator';

/** How the words of a term are matched. */
export type WordMatch =
  /** As the catalogue's search does: folded, each misspelt word forgiven, ranked by relevance. */
  | 'relevance'
  /** Every word, folded (accents and case), none corrected. */
  | 'all'
  /** At least one of the words. */
  | 'any'
  /** The words next to each other, in order. */
  | 'phrase'
  /** The whole text, character for character. */
  | 'exact';

/** A comparison of a number (a publication year). */
export type Comparison = '=' | '<>' | '<' | '>' | '<=' | '>=';

export type BookQuery =
  | { kind: 'and' | 'or' | 'not'; left: BookQuery; right: BookQuery }
  | {
      kind: 'words';
      field: WordField;
      match: WordMatch;
      /** The term as written (for `exact`, and for `relevance`, the search text). */
      text: string;
      /** The words of the term, lower case; the last `*`-ended one marked as a prefix. */
      words: { word: string; prefix: boolean }[];
    }
  /** The book of an ISBN (ISBN-13, digits only); `undefined` for a text that is no ISBN, which matches none. */
  | { kind: 'isbn'; isbn: string | undefined }
  | { kind: 'year'; comparison: Comparison; year: number }
  | { kind: 'all' };
