/**
 * @module MARC 21, the protocol's entry point: a book as a MARC record (`record.ts`, the tags in `tags.ts`),
 * written as MARCXML or ISO 2709 (the formats the registry negotiates; OAI-PMH's `marc21` places the same
 * MARCXML record in its responses, `marcXmlRecord`), and MARCXML or ISO 2709 files read into books for an
 * import (`from-marc.ts`, with ISBD punctuation taken off). Nothing outside this folder imports any other
 * file of it.
 */
export { marcFormat } from './iso2709.js';
export { MARC21_SLIM, MARC21_SLIM_SCHEMA, marcXmlFormat, marcXmlRecord } from './marcxml.js';
export { readIso2709 } from './read-iso2709.js';
export { readMarcxml } from './read-marcxml.js';
export { bookRecord, type MarcBook } from './record.js';
