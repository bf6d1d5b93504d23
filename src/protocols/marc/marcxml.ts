/**
 * @module MARCXML (`application/marcxml+xml`, RFC 6207), the one writer of it: a book as a `<record>`, a
 * page or the whole catalogue as a `<collection>`, in the MARC 21 slim namespace, and the record OAI-PMH's
 * `marc21` places in its responses. Each record is the one `record.ts` makes, written by marcjs's MARCXML
 * writer. That writer escapes subfields (with `he`: markup characters, and everything beyond ASCII as a
 * character reference) but not control fields, where `record.ts` puts only ASCII of its own; and
 * `record.ts` has already replaced what XML 1.0 cannot hold.
 */
import marcjs, { type Record as MarcRecord } from 'marcjs';
import { type Format, groupsOf } from '../../formats/format.js';
import type { Resource, ResourceStream } from '../../hypermedia/model.js';
import { BOOK_KINDS, marcBookOf } from './book-of.js';
import { bookRecord } from './record.js';

export const MARC21_SLIM = 'http://www.loc.gov/MARC21/slim';
/** Where MARC 21 slim's schema is published. */
export const MARC21_SLIM_SCHEMA = 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const COLLECTION = `${DECLARATION}<collection xmlns="${MARC21_SLIM}">\n`;
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** How a record's start tag reads where it stands alone. */
const STANDALONE_START = {
  root: `<record xmlns="${MARC21_SLIM}"`,
  metadata: `<record xmlns="${MARC21_SLIM}" xmlns:xsi="${XSI}" xsi:schemaLocation="${MARC21_SLIM} ${MARC21_SLIM_SCHEMA}"`,
} as const;

export interface MarcXmlRecordOptions {
  /**
   * The record is not inside a `<collection>` (whose namespace an unqualified `<record>` takes), so it names
   * its namespace itself: as a document's `root`, or as the `metadata` of another protocol's record, which
   * also names where its schema is (OAI-PMH asks it of every record's metadata).
   */
  standalone?: keyof typeof STANDALONE_START;
}

/** A record's MARCXML: a `<record>` element, escaped and ready to be written as it is. */
export function marcXmlRecord(record: MarcRecord, options: MarcXmlRecordOptions = {}): string {
  const xml = marcjs.MarcxmlFormater.format(record);
  return options.standalone ? STANDALONE_START[options.standalone] + xml.slice('<record'.length) : xml;
}

function bookXml(resource: Resource, written: Date): string {
  return marcXmlRecord(bookRecord(marcBookOf(resource), { written }));
}

function collection(items: Resource[], written: Date): string {
  let body = COLLECTION;
  for (const item of items) body += bookXml(item, written);
  return `${body}</collection>\n`;
}

export const marcXmlFormat: Format = {
  contentType: 'application/marcxml+xml; charset=utf-8',
  mediaTypes: ['application/marcxml+xml'],
  kinds: BOOK_KINDS,
  resource(resource) {
    const written = new Date();
    if (resource.items) return collection(resource.items, written);
    const record = bookRecord(marcBookOf(resource), { written });
    return DECLARATION + marcXmlRecord(record, { standalone: 'root' });
  },
  async *stream(stream: ResourceStream) {
    const written = new Date();
    // The head goes out with the first record, as in every stream (see `sendStream`).
    let head = COLLECTION;
    for await (const batch of stream.items) {
      for (const group of groupsOf(batch)) {
        yield head + group.map((item) => bookXml(item, written)).join('');
        head = '';
      }
    }
    yield `${head}</collection>\n`;
  },
};
