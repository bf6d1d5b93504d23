/**
 * @module `oai_dc`: a book as unqualified Dublin Core, the format every OAI-PMH repository serves (2.0, §3.4).
 * What each element says is decided in `dublinCore` alone, one line per element.
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { BookMetadata } from '../../domain/harvest-record.js';
import { literalText } from '../xml-text.js';
import type { MetadataFormat, RecordContext } from './metadata-format.js';

const OAI_DC = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC = 'http://purl.org/dc/elements/1.1/';

/** The fifteen elements of simple Dublin Core that a record may repeat in any order. */
type DcElement =
  | 'title'
  | 'creator'
  | 'subject'
  | 'description'
  | 'publisher'
  | 'contributor'
  | 'date'
  | 'type'
  | 'format'
  | 'identifier'
  | 'source'
  | 'language'
  | 'relation'
  | 'coverage'
  | 'rights';

/** Writes a book's Dublin Core elements under `parent`, in the `dc:` namespace (oai_dc's and SRU's `dc`). */
export function writeDublinCore(parent: XMLBuilder, book: BookMetadata, bookUrl: string): void {
  for (const [element, value] of dublinCore(book, bookUrl)) parent.ele(DC, `dc:${element}`).txt(literalText(value));
}

/** A book's Dublin Core elements, in order: a field a book gains is one more line here. */
function dublinCore(book: BookMetadata, bookUrl: string): [DcElement, string][] {
  return [
    ['title', book.title],
    ['creator', book.author_name],
    ...book.subjects.map((subject): [DcElement, string] => ['subject', subject]),
    ...(book.publisher === null ? [] : [['publisher', book.publisher] as [DcElement, string]]),
    ['date', String(book.publication_year)],
    ['type', 'Text'],
    ['identifier', bookUrl],
    ...(book.isbn === null ? [] : [['identifier', `urn:isbn:${book.isbn}`] as [DcElement, string]]),
    ...(book.language === null ? [] : [['language', book.language] as [DcElement, string]]),
  ];
}

export const oaiDc: MetadataFormat = {
  prefix: 'oai_dc',
  schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
  namespace: OAI_DC,
  write(parent: XMLBuilder, book: BookMetadata, context: RecordContext): void {
    const dc = parent.ele(OAI_DC, 'oai_dc:dc', {
      'xmlns:dc': DC,
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': `${OAI_DC} http://www.openarchives.org/OAI/2.0/oai_dc.xsd`,
    });
    writeDublinCore(dc, book, context.bookUrl);
  },
};
