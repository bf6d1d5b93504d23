/**
 * @module The MARC 21 bibliographic tags that carry a book's fields: written by the MARC formats, read by
 * imports (which also accept the older or looser tags a record may use instead; see `from-marc.ts`).
 */

/** The tags each field of a book is written in (docs/records.md, "MARC 21"). */
export const MARC_TAGS = {
  /** The book's id. */
  controlNumber: '001',
  /** Whose control number 001 is: `CONTROL_NUMBER_IDENTIFIER`. */
  controlNumberIdentifier: '003',
  /** Date and time of the latest change, where it is known (OAI-PMH's datestamp). */
  latestTransaction: '005',
  fixedLengthData: '008',
  /** $a the ISBN-13. */
  isbn: '020',
  /** $a the ISO 639-2/B code. */
  language: '041',
  /** $a the author's name, in the order it is stored (first indicator 0). */
  author: '100',
  /** $a the title; second indicator the nonfiling characters of a leading article. */
  title: '245',
  /** Second indicator 1 (publication): $b the publisher, $c the year. */
  publication: '264',
  /** Second indicator 4 (source not specified): $a one subject heading. */
  subject: '650',
} as const;
