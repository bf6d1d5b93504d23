/**
 * @module The files an import reads, by media type: MARCXML, ISO 2709 (MARC 21 "binary"), both read by the
 * MARC protocol, and CSV. Each reader streams: it holds a record or a row at a time, whatever the file's size.
 */
import { type ImportMediaType, importFileTypes, importMediaTypes } from '../domain/imports/media-types.js';
import type { ReadOptions, RecordReader } from '../domain/imports/reader.js';
import { mediaTypeOf } from '../domain/media-type.js';
import { readIso2709, readMarcxml } from '../protocols/marc/index.js';
import { readCsv } from './csv.js';

export type { ReadOptions, RecordReader };

export interface ImportFormat {
  /** The media type a request sends it as. */
  mediaType: ImportMediaType;
  /** Other media types that name it (`application/xml` for a MARCXML file a browser labels by its extension). */
  aliases: readonly string[];
  /** File name extensions, for a file uploaded or named without a type. */
  extensions: readonly string[];
  read: RecordReader;
}

/** How each type is read, and the other media types that name it. */
const readers: Record<ImportMediaType, Pick<ImportFormat, 'aliases' | 'read'>> = {
  // `application/xml` for a MARCXML file a browser labels by its extension.
  'application/marcxml+xml': { aliases: ['application/xml', 'text/xml'], read: readMarcxml },
  'application/marc': { aliases: [], read: readIso2709 },
  'text/csv': { aliases: [], read: readCsv },
};

export const importFormats: readonly ImportFormat[] = importFileTypes.map(({ mediaType, extensions }) => ({
  mediaType,
  extensions,
  ...readers[mediaType],
}));

export { importMediaTypes };

/** The format of a media type (parameters ignored), or `undefined`. */
export function formatOfMediaType(contentType: string | undefined): ImportFormat | undefined {
  const type = mediaTypeOf(contentType);
  return importFormats.find((format) => format.mediaType === type || format.aliases.includes(type));
}

/** The format a file name's extension names, or `undefined`. */
export function formatOfFileName(name: string): ImportFormat | undefined {
  const lower = name.toLowerCase();
  return importFormats.find((format) => format.extensions.some((extension) => lower.endsWith(extension)));
}
