/**
 * @module Answers an OAI-PMH request (2.0, §4): reads its arguments, then what its verb asks for, into the
 * answer `response.ts` writes. The protocol's errors are answers like any other.
 */
import type { Database } from '../../db/client.js';
import { earliestDatestamp, findHarvestRecord, readHarvestPage } from '../../db/queries/oai-records.js';
import type { HarvestRecord } from '../../domain/harvest-record.js';
import { toSecond } from './dates.js';
import { echoesArguments, OaiError } from './errors.js';
import type { OaiIdentifiers } from './identifiers.js';
import type { MetadataFormat } from './metadata-format.js';
import { metadataFormat, metadataFormats } from './metadata-formats.js';
import { type OaiRequest, parseOaiRequest } from './request.js';
import type { OaiAnswer, OaiResponse } from './response.js';
import { decodeResumptionToken, encodeResumptionToken, type ResumptionToken } from './token.js';

/** The repository, as configured. */
export interface OaiRepository {
  name: string;
  adminEmail: string;
  identifiers: OaiIdentifiers;
  /** Records per page of ListIdentifiers and ListRecords. */
  pageSize: number;
}

export interface OaiContext {
  database: Database;
  repository: OaiRepository;
  /** The endpoint's URL (absolute under a configured public URL). */
  baseUrl: string;
}

export async function answerOai(params: URLSearchParams, context: OaiContext): Promise<OaiResponse> {
  const responseDate = new Date();
  const response = (request: Record<string, string> | undefined, answer: OaiAnswer): OaiResponse => ({
    responseDate,
    baseUrl: context.baseUrl,
    request,
    answer,
  });
  let echo: Record<string, string> | undefined;
  try {
    const parsed = parseOaiRequest(params);
    echo = parsed.echo;
    return response(echo, await answerVerb(parsed.request, context, responseDate));
  } catch (error) {
    if (!(error instanceof OaiError)) throw error;
    const request = echo && echoesArguments(error.code) ? echo : undefined;
    return response(request, { errors: [{ code: error.code, message: error.message }] });
  }
}

async function answerVerb(request: OaiRequest, context: OaiContext, now: Date): Promise<OaiAnswer> {
  const { database, repository } = context;
  switch (request.verb) {
    case 'Identify': {
      const earliest = await earliestDatestamp(database.db);
      return {
        verb: 'Identify',
        identity: {
          repositoryName: repository.name,
          baseUrl: context.baseUrl,
          adminEmail: repository.adminEmail,
          earliestDatestamp: toSecond(earliest ?? now),
        },
      };
    }
    case 'ListMetadataFormats':
      if (request.identifier !== undefined) await findRecord(request.identifier, context);
      return { verb: 'ListMetadataFormats', formats: metadataFormats };
    case 'ListSets':
      if (request.resumptionToken !== undefined) {
        throw new OaiError('badResumptionToken', 'ListSets issues no resumption tokens');
      }
      throw new OaiError('noSetHierarchy', 'this repository has no sets: harvest the whole catalogue');
    case 'GetRecord': {
      const format = formatOf(request.metadataPrefix);
      return { verb: 'GetRecord', record: await findRecord(request.identifier, context), format };
    }
    default:
      return answerList(request, context);
  }
}

type ListRequest = Extract<OaiRequest, { verb: 'ListIdentifiers' | 'ListRecords' }>;

/** One page of a list: from its start, or from where a resumption token left it. */
async function answerList(request: ListRequest, context: OaiContext): Promise<OaiAnswer> {
  const { database, repository } = context;
  const position = listPosition(request);
  const format = metadataFormat(position.prefix);
  if (!format) throw new OaiError('badResumptionToken', 'the resumption token names a format no longer offered');
  const rows = await database.listingReads.run(() =>
    readHarvestPage(database.db, {
      from: position.from,
      until: position.until,
      after: position.after,
      limit: repository.pageSize + 1,
      metadata: request.verb === 'ListRecords',
    }),
  );
  if (rows.length === 0) {
    throw new OaiError(
      'noRecordsMatch',
      position.after ? 'no records are left in this list' : 'no records match the dates given',
    );
  }
  const records = rows.slice(0, repository.pageSize);
  const last = records.at(-1) as HarvestRecord;
  const resumed = position.after !== undefined;
  const token =
    rows.length > records.length
      ? {
          token: encodeResumptionToken({
            ...position,
            after: [last.datestamp, last.bookId],
            cursor: position.cursor + records.length,
          }),
          cursor: position.cursor,
        }
      : resumed
        ? { token: '', cursor: position.cursor }
        : undefined;
  if (request.verb === 'ListIdentifiers') return { verb: request.verb, records, token };
  return { verb: request.verb, records, format, token };
}

/** Where a list request starts reading: its first page's selection, or a token's position. */
function listPosition(request: ListRequest): Omit<ResumptionToken, 'after'> & { after?: ResumptionToken['after'] } {
  if ('resumptionToken' in request) {
    const token = decodeResumptionToken(request.resumptionToken);
    if (token.verb !== request.verb) {
      throw new OaiError('badResumptionToken', `the resumption token continues ${token.verb}, not ${request.verb}`);
    }
    return token;
  }
  const { start } = request;
  if (start.set !== undefined) throw new OaiError('noSetHierarchy', 'this repository has no sets');
  formatOf(start.metadataPrefix);
  return {
    verb: request.verb,
    prefix: start.metadataPrefix,
    ...(start.from && { from: start.from.start }),
    ...(start.until && { until: start.until.end }),
    cursor: 0,
  };
}

function formatOf(prefix: string): MetadataFormat {
  const format = metadataFormat(prefix);
  if (!format) {
    const offered = metadataFormats.map((f) => f.prefix).join(', ');
    throw new OaiError('cannotDisseminateFormat', `records are disseminated as ${offered} only`);
  }
  return format;
}

/** The record an identifier names, deleted or not; idDoesNotExist for any other identifier. */
async function findRecord(identifier: string, context: OaiContext): Promise<HarvestRecord> {
  const bookId = context.repository.identifiers.bookOf(identifier);
  const record = bookId === undefined ? undefined : await findHarvestRecord(context.database.db, bookId);
  if (!record) throw new OaiError('idDoesNotExist', 'no record of this repository has that identifier');
  return record;
}
