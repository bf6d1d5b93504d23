/**
 * @module A text as its words: folded (`catalogue_fold`: lower case, accents removed), each run of other
 * characters one space, so `h g w` begins "H. G. Wells". Titles and names are stored so (generated
 * columns); a suggestion's typed text is read the same way, by the same expression.
 */
import { type SQL, sql } from 'drizzle-orm';

export function foldedWords(text: SQL): SQL {
  return sql`trim(regexp_replace(catalogue_fold(${text}), '[^[:alnum:]]+', ' ', 'g'))`;
}
