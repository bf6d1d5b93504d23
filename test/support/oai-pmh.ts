/**
 * OAI-PMH responses in tests: read as XML (fast-xml-parser, namespace prefixes kept) and checked against
 * the OAI-PMH 2.0 schema with the schemas of the formats served (`xmllint --schema`, libxml2-utils).
 */
import { XMLParser } from 'fast-xml-parser';
import { xmlSchemaErrors } from './xml-schema.js';

const SCHEMA = new URL('../fixtures/oai-pmh/responses.xsd', import.meta.url).pathname;

const LISTS = new Set([
  'OAI-PMH.error',
  'OAI-PMH.ListMetadataFormats.metadataFormat',
  'OAI-PMH.ListIdentifiers.header',
  'OAI-PMH.ListRecords.record',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  // Character references (`&#x3C;`, `&#xEB;`, as marc21's MARCXML writer escapes) read as characters.
  htmlEntities: true,
  // Lists read as lists even when they hold one item.
  isArray: (_name, path) => LISTS.has(path as string) || /\.dc:(title|identifier)$/.test(path as string),
});

/** A response's `OAI-PMH` element, as plain objects (attributes under `@name`, text under `#text`). */
// biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design, like JSON bodies in the other tests
export function readOai(xml: string): any {
  return parser.parse(xml)['OAI-PMH'];
}

/** The text of an element read by `readOai`, whether it has attributes or not. */
export function textOf(element: unknown): string {
  if (element === undefined || element === null) return '';
  if (typeof element === 'object') return String((element as { '#text'?: unknown })['#text'] ?? '');
  return String(element);
}

/**
 * Validates each document against the schemas, all in one xmllint run; answers xmllint's complaints,
 * empty when every one is valid.
 */
export function schemaErrors(documents: readonly string[]): Promise<string> {
  return xmlSchemaErrors(SCHEMA, documents);
}
