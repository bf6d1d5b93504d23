/**
 * SRU responses in tests: read as XML (fast-xml-parser, namespace prefixes kept) and checked against the SRU
 * 2.0 response schema (OASIS searchRetrieve 1.0) with MARC 21 slim's and ZeeRex 2.0's for what records hold,
 * and explain's record alone against ZeeRex 2.0's, whatever the version (`xmllint --schema`, libxml2-utils).
 */
import { XMLParser } from 'fast-xml-parser';
import { xmlSchemaErrors } from './xml-schema.js';

const SCHEMA = new URL('../fixtures/sru/responses.xsd', import.meta.url).pathname;
const ZEEREX_SCHEMA = new URL('../fixtures/sru/zeerex-2.0.xsd', import.meta.url).pathname;

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

/** Any XML text, such as a record placed as a string, as plain objects like `readSru`'s. */
// biome-ignore lint/suspicious/noExplicitAny: XML read loosely by design, like JSON bodies in the other tests
export function readXml(xml: string): any {
  return parser.parse(xml);
}

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

/**
 * The ZeeRex record an explain response places as XML in its recordData (SRU 2.0 or 1.2), as its own document;
 * throws when there is none.
 */
export function zeeRexRecordOf(xml: string): string {
  const record = xml.match(/<zr:explain[\s>][\s\S]*<\/zr:explain>/)?.[0];
  if (record === undefined) throw new Error(`no ZeeRex record in ${xml.slice(0, 200)}`);
  return record;
}

/**
 * Validates each ZeeRex record, as a document of its own, against ZeeRex 2.0's schema: its root must be
 * ZeeRex's `explain`, which the response schema's lax recordData cannot demand. Answers xmllint's complaints,
 * empty when every one is valid.
 */
export function zeeRexErrors(records: readonly string[]): Promise<string> {
  return xmlSchemaErrors(ZEEREX_SCHEMA, records);
}
