/**
 * @module An SRU request read from its parameters: which version answers it (2.0, or 1.2 for a client that
 * says `version=1.1` or `1.2`), which operation (explain or searchRetrieve; SRU 2.0 tells them by whether a
 * query is given), and searchRetrieve's query, positions, record schema and escaping. Whatever cannot be
 * carried out is an `SruDiagnostic` naming the parameter.
 */
import { SruDiagnostic } from './diagnostics.js';
import { type RecordSchema, recordSchemaNamed } from './record-schemas.js';

export type SruVersion = '1.2' | '2.0';

/** How records are placed in `<recordData>`: as XML, or as its text escaped (2.0's `recordXMLEscaping`). */
export type RecordEscaping = 'xml' | 'string';

export interface ExplainRequest {
  operation: 'explain';
  version: SruVersion;
  escaping: RecordEscaping;
}

export interface SearchRetrieveRequest {
  operation: 'searchRetrieve';
  version: SruVersion;
  query: string;
  /** The position of the first record asked for, from 1. */
  startRecord: number;
  /** How many records at most, after the server's own bound. */
  maximumRecords: number;
  schema: RecordSchema;
  escaping: RecordEscaping;
}

export type SruRequest = ExplainRequest | SearchRetrieveRequest;

/** Records in a response when the request asks for no number. */
export const DEFAULT_MAXIMUM_RECORDS = 10;
/** The most records one response carries, whatever the request asks. */
export const MAXIMUM_RECORDS = 100;

/** The version a response is written in: the one asked for, 2.0 when none or one not served is. */
export function responseVersion(params: URLSearchParams): SruVersion {
  const version = params.get('version');
  return version === '1.1' || version === '1.2' ? '1.2' : '2.0';
}

/** Reads the request; throws `SruDiagnostic` for what cannot be carried out. */
export function readSruRequest(params: URLSearchParams): SruRequest {
  const version = responseVersion(params);
  const asked = params.get('version');
  if (asked !== null && asked !== '1.1' && asked !== '1.2' && asked !== '2.0') {
    throw new SruDiagnostic(5, '2.0');
  }
  const operation = operationOf(params, version);
  if (params.has('stylesheet')) throw new SruDiagnostic(110, 'stylesheet');
  const escaping = escapingOf(params, version);
  if (operation === 'explain') return { operation, version, escaping };
  const query = params.get('query');
  if (query === null || query.trim() === '') throw new SruDiagnostic(7, 'query');
  const queryType = params.get('queryType');
  if (queryType !== null && queryType !== 'cql') throw new SruDiagnostic(6, 'queryType');
  if (params.has('sortKeys')) throw new SruDiagnostic(80, 'sortKeys');
  if (params.has('recordXPath')) throw new SruDiagnostic(72, 'recordXPath');
  const startRecord = positiveInteger(params, 'startRecord', 1, 1);
  const maximumRecords = Math.min(
    positiveInteger(params, 'maximumRecords', 0, DEFAULT_MAXIMUM_RECORDS),
    MAXIMUM_RECORDS,
  );
  const schemaName = params.get('recordSchema');
  const schema = schemaName === null ? recordSchemaNamed('marcxml') : recordSchemaNamed(schemaName);
  if (!schema) throw new SruDiagnostic(66, schemaName ?? '');
  return { operation, version, query, startRecord, maximumRecords, schema, escaping };
}

/**
 * SRU 1.2 names the operation; 2.0 dropped the parameter (a query means searchRetrieve), but clients written
 * for both still send it, and it is read where it is given.
 */
function operationOf(params: URLSearchParams, version: SruVersion): 'explain' | 'searchRetrieve' {
  const operation = params.get('operation');
  if (operation === null) return params.has('query') ? 'searchRetrieve' : 'explain';
  if (operation === 'explain' || operation === 'searchRetrieve') return operation;
  throw new SruDiagnostic(4, version === '1.2' ? operation : `${operation} (SRU 2.0 has explain and searchRetrieve)`);
}

function escapingOf(params: URLSearchParams, version: SruVersion): RecordEscaping {
  const packing = params.get('recordPacking');
  if (version === '1.2') {
    // SRU 1.2's recordPacking is the escaping: `xml` or `string`.
    if (packing === null || packing === 'xml' || packing === 'string') return packing ?? 'xml';
    throw new SruDiagnostic(71, packing);
  }
  const escaping = params.get('recordXMLEscaping');
  if (escaping !== null) {
    if (escaping === 'xml' || escaping === 'string') return escaping;
    throw new SruDiagnostic(71, escaping);
  }
  // 2.0's recordPacking says whether a record is packed, which the catalogue's always are; a client still
  // speaking 1.2's sense of it (`xml`, `string`) is understood.
  if (packing === null || packing === 'packed') return 'xml';
  if (packing === 'xml' || packing === 'string') return packing;
  throw new SruDiagnostic(6, 'recordPacking');
}

/** A whole number parameter at least `min`, or its default when absent; diagnostic 6 for anything else. */
function positiveInteger(params: URLSearchParams, name: string, min: number, fallback: number): number {
  const text = params.get(name);
  if (text === null || text === '') return fallback;
  const value = /^[0-9]{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isInteger(value) || value < min) throw new SruDiagnostic(6, name);
  return value;
}
