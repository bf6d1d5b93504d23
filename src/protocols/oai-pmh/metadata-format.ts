/**
 * @module The metadata formats records are disseminated in (OAI-PMH 2.0, §3.4): a small registry, where a
 * format is its prefix, schema and namespace, and how it writes a book under `<metadata>`.
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { BookMetadata } from '../../domain/harvest-record.js';

export type MetadataFormat = MetadataFormatNames & (ElementsWriter | TextWriter);

export interface MetadataFormatNames {
  /** The `metadataPrefix` harvesters ask for it by. */
  prefix: string;
  /** Where its XML schema is published. */
  schema: string;
  /** The namespace of its root element. */
  namespace: string;
}

/** A format written as elements of the response's document. */
export interface ElementsWriter {
  /** Writes one book as this format's root element, inside `parent` (the record's `<metadata>`). */
  write(parent: XMLBuilder, book: BookMetadata, context: RecordContext): void;
}

/** A format whose own writer makes its record as text (MARCXML's, `marc21`). */
export interface TextWriter {
  /** One book as this format's root element: well-formed XML, escaped, written under `<metadata>` as it is. */
  text(book: BookMetadata, context: RecordContext): string;
}

/** What a record says besides the book's own fields. */
export interface RecordContext {
  /** The book's URL. */
  bookUrl: string;
  /** The record's datestamp: when the book last changed. */
  changed: Date;
  /** When the response is written. */
  responseDate: Date;
}
