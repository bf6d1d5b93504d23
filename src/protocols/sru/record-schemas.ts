/**
 * @module The record schemas searchRetrieve returns books in: `marcxml` (MARC 21 slim, written by the MARC
 * protocol's one MARCXML writer) and `dc` (SRU's Dublin Core, the elements OAI-PMH's `oai_dc` carries). A
 * schema is asked for by its short name or its identifier, and each record says its identifier.
 */
import { create } from 'xmlbuilder2';
import type { BookMetadata } from '../../domain/harvest-record.js';
import { bookRecord, MARC21_SLIM, marcXmlRecord } from '../marc/index.js';
import { writeDublinCore } from '../oai-pmh/index.js';

/** What a record says besides the book's own fields. */
export interface RecordContext {
  /** The book's URL. */
  bookUrl: string;
  /** When the response is written (MARC's 008/00-05). */
  written: Date;
}

export interface RecordSchema {
  /** The short name explain publishes. */
  name: string;
  /** The identifier each record names its schema by. */
  identifier: string;
  title: string;
  /** Where its XML schema is published. */
  location: string;
  /** The other names a request may use for it. */
  aliases: readonly string[];
  /** A book as this schema's root element: well-formed XML, escaped. */
  text(book: BookMetadata, context: RecordContext): string;
}

const SRW_DC = 'info:srw/schema/1/dc-schema';
const DC = 'http://purl.org/dc/elements/1.1/';

export const marcxml: RecordSchema = {
  name: 'marcxml',
  identifier: 'info:srw/schema/1/marcxml-v1.1',
  title: 'MARCXML (MARC 21 slim)',
  location: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
  aliases: ['marc21', 'info:srw/schema/1/marcxml-v1.1-light', MARC21_SLIM],
  text: (book, context) => marcXmlRecord(bookRecord(book, { written: context.written }), { standalone: 'metadata' }),
};

export const dc: RecordSchema = {
  name: 'dc',
  identifier: 'info:srw/schema/1/dc-v1.1',
  title: 'Dublin Core',
  location: 'http://www.loc.gov/standards/sru/recordSchemas/dc-schema.xsd',
  aliases: [SRW_DC, DC],
  text(book, context) {
    // xmlbuilder2 escapes, and replaces what XML 1.0 cannot hold (a control character in a title).
    const root = create({ invalidCharReplacement: '\uFFFD' }).ele(SRW_DC, 'srw_dc:dc', { 'xmlns:dc': DC });
    writeDublinCore(root, book, context.bookUrl);
    return root.end({ headless: true });
  },
};

export const recordSchemas: readonly RecordSchema[] = [marcxml, dc];

/** The schema a request names, by short name (any case) or identifier; `undefined` for one not served. */
export function recordSchemaNamed(name: string): RecordSchema | undefined {
  const wanted = name.trim().toLowerCase();
  return recordSchemas.find(
    (schema) =>
      schema.name === wanted ||
      schema.identifier === wanted ||
      schema.aliases.some((alias) => alias.toLowerCase() === wanted),
  );
}
