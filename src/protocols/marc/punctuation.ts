/**
 * @module MARC's transcribed text without its ISBD punctuation: titles, names and publishers as a catalogue
 * shows them. A MARC subfield ends with the mark that introduces the next (`The hobbit :` before the
 * subtitle, `Allen & Unwin,` before the date), which means nothing once the subfield stands alone.
 */

/**
 * A final full stop after a single letter is an initial's (`J. R. R.`); after a common abbreviation
 * (`Jr.`, `Bros.`), the abbreviation's; or part of an ellipsis.
 */
const KEEPS_ITS_STOP = /(^|[\s.])\p{L}\.$|(^|\s)(Jr|Sr|Dr|St|Mr|Mrs|Ms|Bros|Co|Inc|Ltd|Esq)\.$|\.\.\.$/u;

/**
 * The text without the ISBD marks that end it (` /`, ` :`, ` ;`, ` =`, `,`) and without a final full
 * stop, unless the stop ends an initial or an ellipsis.
 */
export function withoutIsbdPunctuation(text: string): string {
  let cleaned = text.normalize('NFC').replace(/\s+/g, ' ').trim();
  for (;;) {
    const before = cleaned;
    cleaned = cleaned.replace(/\s*[/:;=,]$/, '').trim();
    if (cleaned.endsWith('.') && !KEEPS_ITS_STOP.test(cleaned)) cleaned = cleaned.slice(0, -1).trim();
    if (cleaned === before) return cleaned;
  }
}

/** Brackets a cataloguer adds around what is not on the title page (`[1937]`, `[London]`). */
export function withoutBrackets(text: string): string {
  return text.replace(/[[\]]/g, '');
}

/**
 * A personal name as people write it: dates dropped (`, 1892-1973`, `, b. 1950`), the ISBD marks that end
 * it stripped, and MARC's inverted form `Tolkien, J. R. R.` turned round to `J. R. R. Tolkien` unless
 * the first indicator says the name is a forename (0) or a family's (3), which are not inverted.
 */
export function personalName(text: string, firstIndicator = '1'): string {
  let name = withoutIsbdPunctuation(text)
    .replace(/,?\s*(?:(?:b|d|fl|ca)\.\s*)?\d{3,4}\??(?:-(?:\d{3,4}\??)?)?$/, '')
    .trim();
  name = withoutIsbdPunctuation(name);
  if (firstIndicator === '0' || firstIndicator === '3') return name;
  const comma = name.indexOf(',');
  if (comma <= 0) return name;
  const surname = name.slice(0, comma).trim();
  const [forenames, ...suffixes] = name
    .slice(comma + 1)
    .split(',')
    .map((part) => part.trim());
  if (!forenames) return surname;
  return [`${forenames} ${surname}`, ...suffixes.filter((part) => part !== '')].join(', ');
}
