/**
 * @module `marc21`: a book as a MARCXML record (MARC 21 slim), the format union catalogues harvest. The
 * record is the one the MARC protocol makes for every MARC answer, with 005 from the record's datestamp,
 * and written by its one MARCXML writer, as the export writes it but naming its namespace and schema.
 */
import type { BookMetadata } from '../../domain/harvest-record.js';
import { bookRecord, MARC21_SLIM, MARC21_SLIM_SCHEMA, marcXmlRecord } from '../marc/index.js';
import type { MetadataFormat } from './metadata-format.js';

export const marc21: MetadataFormat = {
  prefix: 'marc21',
  schema: MARC21_SLIM_SCHEMA,
  namespace: MARC21_SLIM,
  text(book: BookMetadata, context): string {
    const record = bookRecord(book, { written: context.responseDate, changed: context.changed });
    return marcXmlRecord(record, { standalone: 'metadata' });
  },
};
