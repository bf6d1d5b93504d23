/**
 * MARC in tests: MARCXML read into marcjs's field arrays (fast-xml-parser, whitespace kept: 008 ends in a
 * blank), ISO 2709 read back with marcjs, and MARCXML checked against the MARC 21 slim schema with
 * `xmllint --schema` (libxml2-utils).
 */
import { XMLParser } from 'fast-xml-parser';
import marcjs from 'marcjs';
import { xmlSchemaErrors } from './xml-schema.js';

const SCHEMA = new URL('../fixtures/marc21/MARC21slim.xsd', import.meta.url).pathname;

/** A record as marcjs holds it: the leader, and each field `[tag, value]` or `[tag, indicators, code, value, …]`. */
export interface MarcFields {
  leader: string;
  fields: string[][];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Character references (`&#xEB;`, as marcjs writes every character beyond ASCII) read as characters.
  htmlEntities: true,
  isArray: (name) => ['record', 'controlfield', 'datafield', 'subfield'].includes(name),
});

const text = (node: unknown): string =>
  typeof node === 'object' && node !== null ? String((node as { '#text'?: unknown })['#text'] ?? '') : String(node);

/** An element as the parser reads it: attributes under `@name`, text under `#text`. */
type XmlText = string | { '#text'?: string };

/** A MARCXML record as the parser reads it, its repeatable elements always arrays. */
interface XmlRecord {
  leader?: XmlText;
  controlfield?: ({ '@tag': string } & Exclude<XmlText, string>)[];
  datafield?: {
    '@tag': string;
    '@ind1': string;
    '@ind2': string;
    subfield: ({ '@code': string } & Exclude<XmlText, string>)[];
  }[];
}

/** The records of a MARCXML document, whether its root is a `<record>` or a `<collection>`. */
export function readMarcXml(xml: string): MarcFields[] {
  const document: { collection?: { record?: XmlRecord[] }; record?: XmlRecord[] } = parser.parse(xml);
  const records = (document.collection ? (document.collection.record ?? []) : document.record) as XmlRecord[];
  return records.map((record) => ({
    leader: text(record.leader),
    fields: [
      ...(record.controlfield ?? []).map((field) => [field['@tag'], text(field)]),
      ...(record.datafield ?? []).map((field) => [
        field['@tag'],
        `${field['@ind1']}${field['@ind2']}`,
        ...field.subfield.flatMap((subfield) => [subfield['@code'], text(subfield)]),
      ]),
    ],
  }));
}

/** The records of an ISO 2709 file, each read by marcjs. */
export function readIso2709(bytes: Buffer): MarcFields[] {
  const records: MarcFields[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x1d, start) + 1;
    if (end === 0) throw new Error(`bytes after the last record terminator, from byte ${start}`);
    const record = marcjs.Marc.parse(bytes.subarray(start, end), 'iso2709');
    records.push({ leader: record.leader, fields: record.fields });
    start = end;
  }
  return records;
}

/** xmllint's complaints about a MARCXML document against MARC 21 slim; empty when it is valid. */
export function marcSchemaErrors(xml: string): Promise<string> {
  return xmlSchemaErrors(SCHEMA, [xml]);
}
