/**
 * @module MARCXML (`application/marcxml+xml`, RFC 6207): a book as a `<record>`, a page or the whole
 * catalogue as a `<collection>`, in the MARC 21 slim namespace. Each record is the one `record.ts` makes,
 * written by marcjs's MARCXML writer. That writer escapes subfields (with `he`: markup characters, and
 * everything beyond ASCII as a character reference) but not control fields, where `record.ts` puts only
 * ASCII of its own; and `record.ts` has already replaced what XML 1.0 cannot hold.
 */
import marcjs from 'marcjs';
import { type Format, groupsOf } from '../../formats/format.js';
import type { Resource, ResourceStream } from '../../hypermedia/model.js';
import { BOOK_KINDS, marcBookOf } from './book-of.js';
import { bookRecord } from './record.js';

export const MARC21_SLIM = 'http://www.loc.gov/MARC21/slim';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const COLLECTION = `${DECLARATION}<collection xmlns="${MARC21_SLIM}">\n`;

/** One record's XML, `<record>` unqualified (it takes its namespace from the collection around it). */
function recordXml(resource: Resource, written: Date): string {
  return marcjs.MarcxmlFormater.format(bookRecord(marcBookOf(resource), { written }));
}

function collection(items: Resource[], written: Date): string {
  let body = COLLECTION;
  for (const item of items) body += recordXml(item, written);
  return `${body}</collection>\n`;
}

export const marcXmlFormat: Format = {
  contentType: 'application/marcxml+xml; charset=utf-8',
  mediaTypes: ['application/marcxml+xml'],
  kinds: BOOK_KINDS,
  resource(resource) {
    const written = new Date();
    if (resource.items) return collection(resource.items, written);
    // A record alone is the document's root, so it names the namespace itself.
    return `${DECLARATION}<record xmlns="${MARC21_SLIM}"${recordXml(resource, written).slice('<record'.length)}`;
  },
  async *stream(stream: ResourceStream) {
    const written = new Date();
    // The head goes out with the first record, as in every stream (see `sendStream`).
    let head = COLLECTION;
    for await (const batch of stream.items) {
      for (const group of groupsOf(batch)) {
        yield head + group.map((item) => recordXml(item, written)).join('');
        head = '';
      }
    }
    yield `${head}</collection>\n`;
  },
};
