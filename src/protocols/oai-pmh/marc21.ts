/**
 * @module `marc21`: a book as a MARCXML record (MARC 21 slim), the format union catalogues harvest. The
 * record is the one `protocols/marc/record.ts` makes for every MARC answer, with 005 from the record's
 * datestamp; it is written with xmlbuilder2 like the rest of the response, one element per field.
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { BookMetadata } from '../../domain/harvest-record.js';
import { bookRecord, MARC21_SLIM } from '../marc/index.js';
import type { MetadataFormat } from './metadata-format.js';

const SCHEMA = 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd';

export const marc21: MetadataFormat = {
  prefix: 'marc21',
  schema: SCHEMA,
  namespace: MARC21_SLIM,
  write(parent: XMLBuilder, book: BookMetadata, context): void {
    const record = bookRecord(book, { written: context.responseDate, changed: context.changed });
    const element = parent.ele(MARC21_SLIM, 'marc:record', {
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': `${MARC21_SLIM} ${SCHEMA}`,
    });
    element.ele(MARC21_SLIM, 'marc:leader').txt(record.leader);
    for (const [tag = '', indicators = '', ...subfields] of record.fields) {
      if (subfields.length === 0) {
        element.ele(MARC21_SLIM, 'marc:controlfield', { tag }).txt(indicators);
        continue;
      }
      const field = element.ele(MARC21_SLIM, 'marc:datafield', {
        tag,
        ind1: indicators.charAt(0),
        ind2: indicators.charAt(1),
      });
      for (let at = 0; at < subfields.length; at += 2) {
        field.ele(MARC21_SLIM, 'marc:subfield', { code: subfields[at] as string }).txt(subfields[at + 1] as string);
      }
    }
  },
};
