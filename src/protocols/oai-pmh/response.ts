/**
 * @module OAI-PMH responses as XML (2.0, §3.2): the envelope, each verb's answer, and the protocol's errors.
 * Translation only: what to answer was decided by the handler. Built with xmlbuilder2, which escapes every
 * text and attribute, and replaces characters XML 1.0 cannot hold (a control character in a title) with
 * U+FFFD, so every response is well-formed whatever the catalogue holds. A metadata format that writes its
 * record as text (`marc21`) is escaped by its own writer, and its text is placed as it is (`verbatim.ts`).
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { HarvestRecord } from '../../domain/harvest-record.js';
import { literalAttributes, literalText } from '../xml-text.js';
import { toSecond } from './dates.js';
import type { OaiErrorCode } from './errors.js';
import type { OaiIdentifiers } from './identifiers.js';
import type { MetadataFormat } from './metadata-format.js';
import { VerbatimXml } from './verbatim.js';

const OAI = 'http://www.openarchives.org/OAI/2.0/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

export const OAI_CONTENT_TYPE = 'text/xml; charset=utf-8';

/** What Identify tells (§4.2). */
export interface Identity {
  repositoryName: string;
  baseUrl: string;
  adminEmail: string;
  /** The oldest datestamp, to the second. */
  earliestDatestamp: string;
}

/** A list's resumption token element (§3.5): the token, empty on the last page of a list that was split. */
export interface TokenElement {
  token: string;
  /** Records of the list shown before this page. */
  cursor: number;
}

export type OaiAnswer =
  | { errors: { code: OaiErrorCode; message: string }[] }
  | { verb: 'Identify'; identity: Identity }
  | { verb: 'ListMetadataFormats'; formats: readonly MetadataFormat[] }
  | { verb: 'GetRecord'; record: HarvestRecord; format: MetadataFormat }
  | { verb: 'ListIdentifiers'; records: HarvestRecord[]; token?: TokenElement | undefined }
  | { verb: 'ListRecords'; records: HarvestRecord[]; format: MetadataFormat; token?: TokenElement | undefined };

export interface OaiResponse {
  responseDate: Date;
  /** The endpoint's URL (absolute under a configured public URL). */
  baseUrl: string;
  /** The request's verb and arguments, or nothing after badVerb and badArgument. */
  request: Record<string, string> | undefined;
  answer: OaiAnswer;
}

/** How headers and metadata name a book. */
export interface RecordNames {
  identifiers: OaiIdentifiers;
  /** The book's URL, which its metadata gives as an identifier. */
  bookUrl(id: number): string;
}

/** What every record of a response is written with. */
interface RecordWriting {
  names: RecordNames;
  responseDate: Date;
  verbatim: VerbatimXml;
}

export function writeOaiResponse(response: OaiResponse, names: RecordNames): string {
  const writing: RecordWriting = { names, responseDate: response.responseDate, verbatim: new VerbatimXml() };
  const root = create({ invalidCharReplacement: '\uFFFD' })
    .dec({ version: '1.0', encoding: 'UTF-8' })
    .ele(OAI, 'OAI-PMH', { 'xmlns:xsi': XSI, 'xsi:schemaLocation': `${OAI} ${OAI}OAI-PMH.xsd` });
  root.ele('responseDate').txt(toSecond(response.responseDate));
  root.ele('request', literalAttributes(response.request ?? {})).txt(literalText(response.baseUrl));
  const { answer } = response;
  if ('errors' in answer) {
    for (const error of answer.errors) root.ele('error', { code: error.code }).txt(literalText(error.message));
  } else {
    const verb = root.ele(answer.verb);
    switch (answer.verb) {
      case 'Identify':
        identify(verb, answer.identity);
        break;
      case 'ListMetadataFormats':
        for (const format of answer.formats) {
          const element = verb.ele('metadataFormat');
          element.ele('metadataPrefix').txt(format.prefix);
          element.ele('schema').txt(format.schema);
          element.ele('metadataNamespace').txt(format.namespace);
        }
        break;
      case 'GetRecord':
        record(verb, answer.record, answer.format, writing);
        break;
      case 'ListIdentifiers':
        for (const item of answer.records) header(verb, item, names);
        resumptionToken(verb, answer.token);
        break;
      case 'ListRecords':
        for (const item of answer.records) record(verb, item, answer.format, writing);
        resumptionToken(verb, answer.token);
        break;
    }
  }
  return writing.verbatim.fill(root.end());
}

function identify(parent: XMLBuilder, identity: Identity): void {
  parent.ele('repositoryName').txt(identity.repositoryName);
  parent.ele('baseURL').txt(identity.baseUrl);
  parent.ele('protocolVersion').txt('2.0');
  parent.ele('adminEmail').txt(identity.adminEmail);
  parent.ele('earliestDatestamp').txt(identity.earliestDatestamp);
  // Deletions are told for as long as the change feed keeps them (docs/records.md, "OAI-PMH").
  parent.ele('deletedRecord').txt('transient');
  parent.ele('granularity').txt('YYYY-MM-DDThh:mm:ssZ');
}

function header(parent: XMLBuilder, item: HarvestRecord, names: RecordNames): void {
  const element = parent.ele('header', item.deleted ? { status: 'deleted' } : {});
  element.ele('identifier').txt(names.identifiers.of(item.bookId));
  element.ele('datestamp').txt(toSecond(item.datestamp));
}

function record(parent: XMLBuilder, item: HarvestRecord, format: MetadataFormat, writing: RecordWriting): void {
  const { names, responseDate, verbatim } = writing;
  const element = parent.ele('record');
  header(element, item, names);
  if (!item.book) return;
  const context = { bookUrl: names.bookUrl(item.bookId), changed: new Date(item.datestamp), responseDate };
  const metadata = element.ele('metadata');
  if ('text' in format) verbatim.place(metadata, format.text(item.book, context));
  else format.write(metadata, item.book, context);
}

function resumptionToken(parent: XMLBuilder, token: TokenElement | undefined): void {
  if (token) parent.ele('resumptionToken', { cursor: String(token.cursor) }).txt(token.token);
}
