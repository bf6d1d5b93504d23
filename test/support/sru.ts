/**
 * SRU responses in tests: read as XML (fast-xml-parser, namespace prefixes kept) and checked against the SRU
 * 2.0 response schema (OASIS searchRetrieve 1.0) with MARC 21 slim's (`xmllint --schema`, libxml2-utils).
 */
import { XMLParser } from 'fast-xml-parser';
import { xmlSchemaErrors } from './xml-schema.js';

const SCHEMA = new URL('../fixtures/sru/responses.xsd', import.meta.url).pathname;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  // Lists read as lists even when they hold one item.
  isArray: (name) => ['zs:record', 'diag:diagnostic', 'datafield', 'subfield', 'dc:identifier'].includes(name),
});

/** A response's root element, as plain objects (attributes under `@name`, text under `#text`). */
// biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design, like JSON bodies in the other tests
export function readSru(xml: string): any {
  const document = parser.parse(xml);
  return document['zs:searchRetrieveResponse'] ?? document['zs:explainResponse'];
}

/**
 * Validates each document against the SRU 2.0 schema, all in one xmllint run; answers xmllint's complaints,
 * empty when every one is valid.
 */
export function schemaErrors(documents: readonly string[]): Promise<string> {
  return xmlSchemaErrors(SCHEMA, documents);
}
