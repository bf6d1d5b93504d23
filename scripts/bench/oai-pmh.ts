/**
 * @module OAI-PMH paging at the largest catalogue, as a harvester meets it: ListRecords' first page, and
 * pages resumed from tokens half way through the harvest (reached by following tokens from the start, as
 * a harvester does). Target: a deep page's median at most 1.5× the first page's.
 */
import { XMLParser } from 'fast-xml-parser';
import { figuresOf, type LatencyFigures } from './listings.js';

export const OAI_DEEP_PAGE_TARGET = 1.5;

export interface OaiFigures {
  first: LatencyFigures;
  /** Pages resumed from tokens after `depth` records. */
  deep: LatencyFigures;
  /** Records before the first deep page measured. */
  depth: number;
  /** Deep median over first median. */
  ratio: number;
  /** Why there are no figures. */
  error?: string;
}

/** Requests made before measuring, of each kind. */
const WARM_UP = 3;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

export async function measureOaiPages(baseUrl: string, books: number, samples: number): Promise<OaiFigures> {
  const start = `${baseUrl}/oai?verb=ListRecords&metadataPrefix=oai_dc`;
  const resume = (token: string) => `${baseUrl}/oai?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  const first: number[] = [];
  for (let i = 0; i < WARM_UP + samples; i++) first.push((await listPage(start)).ms);
  let page = await listPage(start);
  let depth = page.records;
  while (depth < books / 2 && page.token) {
    page = await listPage(resume(page.token));
    depth += page.records;
  }
  const deep: number[] = [];
  while (deep.length < WARM_UP + samples && page.token) {
    page = await listPage(resume(page.token));
    deep.push(page.ms);
  }
  if (deep.length <= WARM_UP) throw new Error(`the harvest ended after ${depth} records: the catalogue is too small`);
  const figures = (times: number[]) => figuresOf(times.slice(WARM_UP));
  const [firstFigures, deepFigures] = [figures(first), figures(deep)];
  return { first: firstFigures, deep: deepFigures, depth, ratio: deepFigures.medianMs / firstFigures.medianMs };
}

/** One page, timed from sending to the last byte of the body: its records and the token after it. */
async function listPage(url: string): Promise<{ ms: number; records: number; token: string }> {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  const list = parser.parse(text)['OAI-PMH'];
  if (list.error) throw new Error(`GET ${url} answered the OAI-PMH error ${JSON.stringify(list.error)}`);
  const { record, resumptionToken } = list.ListRecords;
  const token =
    typeof resumptionToken === 'object' ? String(resumptionToken['#text'] ?? '') : String(resumptionToken ?? '');
  return { ms, records: Array.isArray(record) ? record.length : 1, token };
}
