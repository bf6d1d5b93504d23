/**
 * @module The files an import reads: MARCXML, ISO 2709 and CSV, by media type and file name extension. The
 * one list the readers, the control, the HTML form and every message about them take it from.
 */
export const importFileTypes = [
  { mediaType: 'application/marcxml+xml', label: 'MARCXML', extensions: ['.xml', '.marcxml'] },
  { mediaType: 'application/marc', label: 'ISO 2709', extensions: ['.mrc', '.marc', '.iso2709', '.iso', '.dat'] },
  { mediaType: 'text/csv', label: 'CSV', extensions: ['.csv'] },
] as const;

export type ImportMediaType = (typeof importFileTypes)[number]['mediaType'];

/** The media types, the first the one the import control names. */
export const importMediaTypes: readonly ImportMediaType[] = importFileTypes.map((type) => type.mediaType);

/** "A, B or C". */
export const eitherOf = (items: string[]) => new Intl.ListFormat('en-GB', { type: 'disjunction' }).format(items);

/** Each type as people know it: "MARCXML (.xml), ISO 2709 (.mrc) or CSV (.csv)". */
export const importFilesDescribed = eitherOf(importFileTypes.map((type) => `${type.label} (${type.extensions[0]})`));

/** What a file input accepts: every media type and extension (HTML's `accept`). */
export const importFileAccept = importFileTypes.flatMap((type) => [type.mediaType, ...type.extensions]).join(',');
