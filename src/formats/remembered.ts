/**
 * @module A bounded memoize of texts made from names, used by the HTML view for its labels. Bounded, so
 * that names that are not the vocabulary's cannot grow a table without end.
 */

const MAX_REMEMBERED = 256;

/** The text `make` makes of `key`, made once per key of `texts` (up to the bound, then made each time). */
export function remembered(texts: Map<string, string>, key: string, make: (key: string) => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = make(key);
    if (texts.size < MAX_REMEMBERED) texts.set(key, text);
  }
  return text;
}
