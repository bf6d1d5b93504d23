/**
 * @module `marc21`: a book as a MARCXML record (MARC 21 slim), the format union catalogues harvest. The
 * record is the one the MARC protocol makes for every MARC answer, with 005 from the record's datestamp,
 * and written by it as elements of the response's document.
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { BookMetadata } from '../../domain/harvest-record.js';
import { appendMarcXml, bookRecord, MARC21_SLIM, MARC21_SLIM_SCHEMA } from '../marc/index.js';
import type { MetadataFormat } from './metadata-format.js';

export const marc21: MetadataFormat = {
  prefix: 'marc21',
  schema: MARC21_SLIM_SCHEMA,
  namespace: MARC21_SLIM,
  write(parent: XMLBuilder, book: BookMetadata, context): void {
    appendMarcXml(parent, bookRecord(book, { written: context.responseDate, changed: context.changed }));
  },
};
