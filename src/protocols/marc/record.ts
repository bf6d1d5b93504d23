/**
 * @module A book as a MARC 21 bibliographic record (marcjs's record model): which tag, indicators and
 * subfields carry each field of a book. MARCXML, ISO 2709 and OAI-PMH's `marc21` all write the record made
 * here; its tags are `MARC_TAGS`, which reading MARC in uses too.
 */
import marcjs, { type Record as MarcRecord } from 'marcjs';
import { MARC_TAGS } from './tags.js';

/**
 * The MARC code of the organization whose control numbers 001 holds. This catalogue has no code of its own
 * (the Library of Congress assigns them); a library that has one puts it here, once, before its records
 * are first exchanged.
 */
export const CONTROL_NUMBER_IDENTIFIER = 'catalogue';

/** The fields of a book a record is made from; a field absent or null is left out of the record. */
export interface MarcBook {
  id?: number | undefined;
  title?: string | undefined;
  publication_year?: number | undefined;
  author_name?: string | undefined;
  isbn?: string | null | undefined;
  /** ISO 639-2/B, as 041 and 008/35-37 carry it. */
  language?: string | null | undefined;
  subjects?: readonly string[] | undefined;
  publisher?: string | null | undefined;
}

export interface MarcRecordOptions {
  /** The day the record is written: 008/00-05 (the catalogue keeps no date a book was entered). */
  written: Date;
  /** When the book last changed, for 005; left out where it is not known. */
  changed?: Date | undefined;
}

/**
 * Leader: lengths left as zeros (the ISO 2709 writer computes them), record status `n` (new), type `a`
 * (language material), level `m` (monograph), coding `a` (Unicode), encoding level `3` (abbreviated: no
 * physical description, no place of publication), descriptive form `c` (no ISBD punctuation).
 */
const LEADER = '00000nam a22000003c 4500';

export function bookRecord(book: MarcBook, options: MarcRecordOptions): MarcRecord {
  const record = new marcjs.Record();
  record.leader = LEADER;
  const fields: string[][] = [];
  if (book.id !== undefined) {
    fields.push([MARC_TAGS.controlNumber, String(book.id)]);
    fields.push([MARC_TAGS.controlNumberIdentifier, CONTROL_NUMBER_IDENTIFIER]);
  }
  if (options.changed) fields.push([MARC_TAGS.latestTransaction, latestTransaction(options.changed)]);
  fields.push([MARC_TAGS.fixedLengthData, fixedLengthData(book, options.written)]);
  if (book.isbn) fields.push([MARC_TAGS.isbn, '  ', 'a', book.isbn]);
  if (book.language) fields.push([MARC_TAGS.language, '  ', 'a', book.language]);
  if (book.author_name) fields.push([MARC_TAGS.author, '0 ', 'a', text(book.author_name)]);
  if (book.title !== undefined) {
    const title = text(book.title);
    // First indicator 1: the title is an added entry besides the author's main entry (when there is one).
    fields.push([MARC_TAGS.title, `${book.author_name ? 1 : 0}${nonfiling(title, book.language)}`, 'a', title]);
  }
  const publication = [
    ...(book.publisher ? ['b', text(book.publisher)] : []),
    ...(book.publication_year !== undefined ? ['c', yearText(book.publication_year)] : []),
  ];
  if (publication.length > 0) fields.push([MARC_TAGS.publication, ' 1', ...publication]);
  for (const subject of book.subjects ?? []) fields.push([MARC_TAGS.subject, ' 4', 'a', text(subject)]);
  record.fields = fields;
  return record;
}

/**
 * 008, forty positions: 00-05 the day written; 06-14 one known year (`s`), or `b` for a year before the
 * common era, which 008 cannot hold (`n`, dates unknown, where the year was not read); 15-17 `xx ` (no place known); 18-34, a book's own, `|` (not coded),
 * 32 undefined; 35-37 the language, or `|||`; 38 not modified; 39 `d` (catalogued by other than a
 * national agency).
 */
function fixedLengthData(book: MarcBook, written: Date): string {
  const year = book.publication_year;
  const dates = year === undefined ? 'nuuuuuuuu' : year < 0 ? 'b        ' : `s${String(year).padStart(4, '0')}    `;
  const language = book.language && /^[a-z]{3}$/.test(book.language) ? book.language : '|||';
  return `${yymmdd(written)}${dates}xx ${'|'.repeat(14)} ||${language} d`;
}

function yymmdd(date: Date): string {
  return date.toISOString().slice(2, 10).replaceAll('-', '');
}

/** 005: yyyymmddhhmmss.f, in UTC. */
function latestTransaction(date: Date): string {
  return `${date.toISOString().slice(0, 21).replace(/[-T:]/g, '')}`;
}

function yearText(year: number): string {
  return year < 0 ? `${-year} B.C.` : String(year);
}

/**
 * Leading articles a title is filed without, by language (245 second indicator: how many characters to
 * skip). Only where the word is always an article in that language: Spanish `a` or Italian `i` is not.
 */
const ARTICLES: Record<string, readonly string[]> = {
  eng: ['the ', 'an ', 'a '],
  fre: ['les ', 'le ', 'la ', "l'", 'un ', 'une '],
  ger: ['der ', 'die ', 'das ', 'ein ', 'eine '],
  spa: ['los ', 'las ', 'el ', 'la ', 'un ', 'una '],
  ita: ['gli ', 'il ', 'lo ', 'la ', "l'", 'le ', 'un ', 'una '],
  dut: ['de ', 'het ', 'een '],
};

function nonfiling(title: string, language: string | null | undefined): number {
  const lower = title.toLowerCase();
  const article = ARTICLES[language ?? '']?.find((candidate) => lower.startsWith(candidate));
  return article ? Math.min(article.length, 9) : 0;
}

/**
 * A text as MARC can carry it: characters that neither XML 1.0 nor ISO 2709 can hold (C0 controls, among
 * them ISO 2709's own delimiters, and unpaired surrogates) become U+FFFD, so every record is well-formed
 * whatever was stored by hand in SQL.
 */
function text(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to replace.
  return value.toWellFormed().replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD');
}
