/**
 * @module MARC 21 in ISO 2709 (`application/marc`), the binary exchange format: a book is one record, a page
 * or the whole catalogue the records one after another. marcjs's writer computes the leader's lengths and
 * the directory, in bytes of UTF-8 (leader/09 `a`).
 */
import marcjs from 'marcjs';
import { type Format, groupsOf } from '../../formats/format.js';
import type { Resource, ResourceStream } from '../../hypermedia/model.js';
import { BOOK_KINDS, marcBookOf } from './book-of.js';
import { bookRecord } from './record.js';

/** One record, as the text whose UTF-8 bytes are the record. */
function recordBytes(resource: Resource, written: Date): string {
  return marcjs.Iso2709Formater.format(bookRecord(marcBookOf(resource), { written }));
}

export const marcFormat: Format = {
  contentType: 'application/marc',
  mediaTypes: ['application/marc'],
  kinds: BOOK_KINDS,
  resource(resource) {
    const written = new Date();
    return (resource.items ?? [resource]).map((item) => recordBytes(item, written)).join('');
  },
  async *stream(stream: ResourceStream) {
    const written = new Date();
    for await (const batch of stream.items) {
      for (const group of groupsOf(batch)) yield group.map((item) => recordBytes(item, written)).join('');
    }
  },
};
