/**
 * @module MARCXML written as elements of an xmlbuilder2 document, for a protocol whose whole response is
 * such a document (OAI-PMH's `marc21`): the same record `record.ts` makes, its elements prefixed `marc:`
 * in the MARC 21 slim namespace, every text escaped by xmlbuilder2. The export writes its records with
 * marcjs instead (`marcxml.ts`), far faster: a page of a hundred can afford xmlbuilder2, a stream of a
 * million cannot (docs/records.md, "Formats and libraries").
 */
import type { Record as MarcRecord } from 'marcjs';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { MARC21_SLIM } from './marcxml.js';

/** Where MARC 21 slim's schema is published. */
export const MARC21_SLIM_SCHEMA = 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd';

/** Appends the record to `parent` as a `<marc:record>` that names its schema. */
export function appendMarcXml(parent: XMLBuilder, record: MarcRecord): void {
  const element = parent.ele(MARC21_SLIM, 'marc:record', {
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': `${MARC21_SLIM} ${MARC21_SLIM_SCHEMA}`,
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
}
