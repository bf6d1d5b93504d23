/**
 * @module A MARC 21 bibliographic record read as a book: which tags and subfields say what (docs/records.md,
 * "Import"). Only reading; whether the result may land is `checkRecord`'s.
 */
import { languageCodeOf } from '../../domain/identifiers.js';
import type { ImportedRecord } from '../../domain/imports/candidate.js';
import {
  controlField,
  dataFields,
  firstIndicator,
  firstSubfield,
  type MarcField,
  type MarcRecord,
  secondIndicator,
  subfields,
} from './fields.js';
import { personalName, withoutBrackets, withoutIsbdPunctuation } from './punctuation.js';
import { MARC_TAGS } from './tags.js';

/** The ISBN at the start of a 020 $a, before a qualifier (`0261102214 (pbk.)`, `978-0-261-10221-7 : £6.99`). */
const LEADING_ISBN = /^\s*([0-9][0-9 -]*[0-9Xx])/;

/**
 * The book a record describes. `source` names where control numbers come from when a record has no 003
 * (the importer's choice); without either, the 001 is not kept, since whose number it is cannot be told.
 */
export function recordFromMarc(record: MarcRecord, options: { source?: string | undefined } = {}): ImportedRecord {
  const controlNumber = controlField(record, MARC_TAGS.controlNumber)?.trim();
  const source = controlField(record, MARC_TAGS.controlNumberIdentifier)?.trim() || options.source;
  const publication = publicationField(record);
  return {
    title: titleOf(record),
    year: yearOf(record, publication),
    authorName: authorOf(record),
    isbn: isbnOf(record),
    language: languageOf(record),
    subjects: subjectsOf(record),
    publisher: publisherOf(publication),
    key: controlNumber && source ? { source, controlNumber } : undefined,
  };
}

/** 245 $a, and $b after it (the rest of the title), without the ISBD marks between them. */
function titleOf(record: MarcRecord): string | undefined {
  const [field] = dataFields(record, MARC_TAGS.title);
  if (!field) return undefined;
  const [main] = subfields(field, 'a');
  if (main === undefined) return undefined;
  const title = withoutIsbdPunctuation(main);
  const [rest] = subfields(field, 'b');
  if (rest === undefined || withoutIsbdPunctuation(rest) === '') return title;
  // ` =` introduces a parallel title (the same in another language), ` :` other title information.
  const joiner = /\s=\s*$/.test(main) ? ' = ' : ': ';
  return `${title}${joiner}${withoutIsbdPunctuation(rest)}`;
}

/** The 264 that states the publication (second indicator 1), else the first 264, else the 260. */
function publicationField(record: MarcRecord): MarcField | undefined {
  const rda = dataFields(record, MARC_TAGS.publication);
  return rda.find((field) => secondIndicator(field) === '1') ?? rda[0] ?? dataFields(record, '260')[0];
}

/** The first four-digit year of the publication's $c, else 008/07-10 when they are a year. */
function yearOf(record: MarcRecord, publication: MarcField | undefined): string | undefined {
  const date = publication && subfields(publication, 'c')[0];
  const stated = date?.match(/\d{4}/)?.[0];
  if (stated) return stated;
  const fixed = controlField(record, MARC_TAGS.fixedLengthData)?.slice(7, 11);
  return fixed && /^\d{4}$/.test(fixed) ? fixed : undefined;
}

/** 100 $a, turned round; a record without one names its main entry by a corporate body (110) or an added one (700). */
function authorOf(record: MarcRecord): string | undefined {
  for (const tag of [MARC_TAGS.author, '110', '700']) {
    const field = dataFields(record, tag).find((f) => subfields(f, 'a').length > 0);
    if (!field) continue;
    const name = subfields(field, 'a')[0] as string;
    return tag === '110' ? withoutIsbdPunctuation(name) : personalName(name, firstIndicator(field));
  }
  return undefined;
}

/**
 * The first 020 $a that holds an ISBN; when none does, the first one as written, for the refusal to show.
 * ($z holds cancelled or invalid ISBNs: never read.)
 */
function isbnOf(record: MarcRecord): string | undefined {
  const written = dataFields(record, MARC_TAGS.isbn).flatMap((field) => subfields(field, 'a'));
  const numbers = written.map((text) => text.match(LEADING_ISBN)?.[1] ?? text.trim());
  return numbers.find((n) => /^(?:[0-9][ -]?){9}[0-9Xx]$|^(?:[0-9][ -]?){12}[0-9]$/.test(n)) ?? numbers[0];
}

/**
 * 041 $a (old records run codes together: `engfre`, the first is the text's), else 008/35-37 when it is a
 * code (a fallback that is not one is ignored, not refused).
 */
function languageOf(record: MarcRecord): string | undefined {
  const coded = firstSubfield(record, MARC_TAGS.language, 'a')?.trim();
  if (coded) return coded.length > 3 && coded.length % 3 === 0 ? coded.slice(0, 3) : coded;
  const fixed = controlField(record, MARC_TAGS.fixedLengthData)?.slice(35, 38).trim();
  return fixed && languageCodeOf(fixed) ? fixed : undefined;
}

/** Each 650 $a, once. */
function subjectsOf(record: MarcRecord): string[] | undefined {
  const headings = dataFields(record, MARC_TAGS.subject)
    .flatMap((field) => subfields(field, 'a'))
    .map(withoutIsbdPunctuation)
    .filter((heading) => heading !== '');
  return headings.length > 0 ? headings : undefined;
}

/** The publication's $b. */
function publisherOf(publication: MarcField | undefined): string | undefined {
  const name = publication && subfields(publication, 'b')[0];
  if (name === undefined) return undefined;
  const cleaned = withoutIsbdPunctuation(withoutBrackets(name));
  return cleaned === '' ? undefined : cleaned;
}
