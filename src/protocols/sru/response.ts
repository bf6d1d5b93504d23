/**
 * @module SRU responses as XML: SRU 2.0's (the OASIS searchRetrieve namespaces) or SRU 1.2's (`zing/srw`),
 * searchRetrieve's records and diagnostics, and explain's ZeeRex record. Translation only: what to answer was
 * decided in `answer.ts`. Built with xmlbuilder2, which escapes the texts (a record asked for as a string
 * among them: `literalText`, for xmlbuilder2 would keep its entity references as they are) and replaces what
 * XML 1.0 cannot hold; a record asked for as XML is placed as its schema wrote it (`VerbatimXml`).
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { VerbatimXml } from '../oai-pmh/index.js';
import { literalText } from '../xml-text.js';
import type { SruAnswer } from './answer.js';
import { DIAGNOSTICS, diagnosticUri } from './diagnostics.js';
import { writeZeeRex } from './explain.js';
import type { RecordEscaping, SruVersion } from './request.js';

/** The namespaces of each version's response and diagnostics. */
const NAMESPACES = {
  '2.0': {
    sru: 'http://docs.oasis-open.org/ns/search-ws/sruResponse',
    diag: 'http://docs.oasis-open.org/ns/search-ws/diagnostic',
  },
  '1.2': { sru: 'http://www.loc.gov/zing/srw/', diag: 'http://www.loc.gov/zing/srw/diagnostic/' },
} as const;

/** SRU 2.0's media type (searchRetrieve 1.0, Part 3, §2.1); 1.2 answered as XML. */
export const SRU_CONTENT_TYPES: Record<SruVersion, string> = {
  '2.0': 'application/sru+xml; charset=utf-8',
  '1.2': 'text/xml; charset=utf-8',
};

/** Where the server is, as explain tells it. */
export interface Endpoint {
  /** The endpoint's absolute URL. */
  url: URL;
}

export function writeSruResponse(answer: SruAnswer, endpoint: Endpoint): string {
  const ns = NAMESPACES[answer.version];
  const verbatim = new VerbatimXml();
  const document = create({ invalidCharReplacement: '\uFFFD' }).dec({ version: '1.0', encoding: 'UTF-8' });
  const element = (parent: XMLBuilder, name: string) => parent.ele(ns.sru, `zs:${name}`);
  if (answer.operation === 'explain') {
    const root = document.ele(ns.sru, 'zs:explainResponse');
    if (answer.version === '1.2') element(root, 'version').txt('1.2');
    const record = element(root, 'record');
    element(record, 'recordSchema').txt('http://explain.z3950.org/dtd/2.0/');
    packing(record, answer.version, answer.escaping, element);
    const data = element(record, 'recordData');
    const zeeRex = writeZeeRex(answer.version, endpoint.url);
    if (answer.escaping === 'string') data.txt(literalText(zeeRex));
    else verbatim.place(data, zeeRex);
    return verbatim.fill(document.end());
  }
  const root = document.ele(ns.sru, 'zs:searchRetrieveResponse');
  if (answer.version === '1.2') element(root, 'version').txt('1.2');
  element(root, 'numberOfRecords').txt(String(answer.numberOfRecords));
  if (answer.records.length > 0 && answer.schema) {
    const records = element(root, 'records');
    for (const item of answer.records) {
      const record = element(records, 'record');
      element(record, 'recordSchema').txt(answer.schema.identifier);
      packing(record, answer.version, answer.escaping, element);
      const data = element(record, 'recordData');
      if (answer.escaping === 'string') data.txt(literalText(item.xml));
      else verbatim.place(data, item.xml);
      element(record, 'recordPosition').txt(String(item.position));
    }
  }
  if (answer.nextRecordPosition !== undefined) {
    element(root, 'nextRecordPosition').txt(String(answer.nextRecordPosition));
  }
  if (answer.diagnostics.length > 0) {
    const diagnostics = element(root, 'diagnostics');
    for (const diagnostic of answer.diagnostics) {
      const item = diagnostics.ele(ns.diag, 'diag:diagnostic');
      item.ele(ns.diag, 'diag:uri').txt(diagnosticUri(diagnostic.code));
      if (diagnostic.details !== undefined) item.ele(ns.diag, 'diag:details').txt(literalText(diagnostic.details));
      item.ele(ns.diag, 'diag:message').txt(DIAGNOSTICS[diagnostic.code]);
    }
  }
  // SRU 2.0 says how exact the count is; 1.2 has no word for it.
  if (answer.version !== '1.2') {
    element(root, 'resultCountPrecision').txt(`${RESULT_COUNT_PRECISION}${answer.estimated ? 'estimate' : 'exact'}`);
  }
  return verbatim.fill(document.end());
}

/** The vocabulary of SRU 2.0's `resultCountPrecision`. */
const RESULT_COUNT_PRECISION = 'info:srw/vocabulary/resultCountPrecision/1/';

/** How a record is packed: 1.2's `recordPacking` (xml or string), 2.0's `recordXMLEscaping`. */
function packing(
  record: XMLBuilder,
  version: SruVersion,
  escaping: RecordEscaping,
  element: (parent: XMLBuilder, name: string) => XMLBuilder,
): void {
  if (version === '1.2') element(record, 'recordPacking').txt(escaping);
  else element(record, 'recordXMLEscaping').txt(escaping);
}
