/** @module The media types an import reads: MARCXML, ISO 2709 and CSV, the first the one its control names. */
export const importMediaTypes = ['application/marcxml+xml', 'application/marc', 'text/csv'] as const;

export type ImportMediaType = (typeof importMediaTypes)[number];
