/** @module The metadata formats the catalogue disseminates, by prefix. */
import { marc21 } from './marc21.js';
import type { MetadataFormat } from './metadata-format.js';
import { oaiDc } from './oai-dc.js';

export const metadataFormats: readonly MetadataFormat[] = [oaiDc, marc21];

/** The format of a prefix, or `undefined` when the catalogue has none by that name. */
export function metadataFormat(prefix: string): MetadataFormat | undefined {
  return metadataFormats.find((format) => format.prefix === prefix);
}
