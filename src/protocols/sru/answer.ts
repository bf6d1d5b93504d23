/**
 * @module SRU's operations answered: explain (the server's ZeeRex record) and searchRetrieve (the CQL query
 * translated and run by the catalogue's own queries, a page of its records). Every request gets a response;
 * what cannot be carried out is a diagnostic in it.
 */
import type { Database } from '../../db/client.js';
import { planBookQuery, readBookQueryPage } from '../../db/queries/book-query.js';
import { CqlSyntaxError, CqlTooManyBooleans, MAX_BOOLEANS, parseCql } from './cql.js';
import { type Diagnostic, SruDiagnostic } from './diagnostics.js';
import { bookQueryOf } from './indexes.js';
import type { RecordSchema } from './record-schemas.js';
import { type RecordEscaping, readSruRequest, responseVersion, type SruVersion } from './request.js';

export interface SruRecord {
  position: number;
  bookId: number;
  /** The record as its schema writes it: escaped XML. */
  xml: string;
}

export type SruAnswer =
  | { operation: 'explain'; version: SruVersion; escaping: RecordEscaping }
  | {
      operation: 'searchRetrieve';
      version: SruVersion;
      numberOfRecords: number;
      /** Whether `numberOfRecords` is the planner's estimate (past the count limit) rather than a count. */
      estimated: boolean;
      schema?: RecordSchema;
      escaping: RecordEscaping;
      records: SruRecord[];
      nextRecordPosition?: number;
      diagnostics: Diagnostic[];
    };

export interface SruContext {
  database: Database;
  /** The book's URL, which its Dublin Core record gives as an identifier. */
  bookUrl(id: number): string;
  /** Matches counted exactly up to this many (the listing's limit); past it, estimated and not ranked. */
  countLimit: number;
}

export async function answerSru(params: URLSearchParams, context: SruContext): Promise<SruAnswer> {
  const version = responseVersion(params);
  try {
    const request = readSruRequest(params);
    if (request.operation === 'explain') return request;
    let cql: ReturnType<typeof parseCql>;
    try {
      cql = parseCql(request.query);
    } catch (error) {
      if (error instanceof CqlSyntaxError) throw new SruDiagnostic(10, error.message);
      if (error instanceof CqlTooManyBooleans) throw new SruDiagnostic(38, String(MAX_BOOLEANS));
      throw error;
    }
    const query = bookQueryOf(cql);
    const db = context.database.db;
    const plan = await planBookQuery(db, query);
    const offset = request.startRecord - 1;
    const page = await readBookQueryPage(db, plan, { offset, limit: request.maximumRecords }, context.countLimit);
    // Past an estimate, only an empty page shows the first record is beyond the last.
    const beyond = page.estimated
      ? request.maximumRecords > 0 && page.books.length === 0
      : request.startRecord > page.total;
    if (beyond && page.total > 0) throw new SruDiagnostic(61, String(request.startRecord));
    const written = new Date();
    const records = page.books.map((book, i) => ({
      position: request.startRecord + i,
      bookId: book.id,
      xml: request.schema.text(book, { bookUrl: context.bookUrl(book.id), written }),
    }));
    const next = request.startRecord + records.length;
    return {
      operation: 'searchRetrieve',
      version,
      numberOfRecords: page.total,
      estimated: page.estimated,
      schema: request.schema,
      escaping: request.escaping,
      records,
      ...(records.length > 0 && next <= page.total && { nextRecordPosition: next }),
      diagnostics: [],
    };
  } catch (error) {
    if (!(error instanceof SruDiagnostic)) throw error;
    return {
      operation: 'searchRetrieve',
      version,
      numberOfRecords: 0,
      estimated: false,
      escaping: 'xml',
      records: [],
      diagnostics: [error.diagnostic],
    };
  }
}
