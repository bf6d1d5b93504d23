/**
 * @module Listing latency: single sequential requests, each one not asked before (the page size, word,
 * year or name changes between requests), so that no result or count cache answers them. The same
 * scenarios run at every catalogue size; what matters is how their latency grows with the size.
 */
import { COMMON_WORDS } from '../../src/db/generate.js';
import type { Catalogue } from './catalogues.js';
import { median, percentile } from './stats.js';

export interface ListingScenario {
  key: string;
  /** What the requests look like, for the report. */
  label: string;
  /** A few plain words, for the chart's legend. */
  short: string;
}

export const listingScenarios: ListingScenario[] = [
  { key: 'page1', label: '`/books?page=1&per_page=P`', short: 'page 1' },
  { key: 'sorted', label: 'same, `sort=-publication_year`', short: 'sort=-publication_year' },
  { key: 'author', label: '`author=Author N`', short: 'author=Author N' },
  { key: 'search', label: '`query=<word in 10% of titles>`', short: 'query (word in 10%)' },
  { key: 'next', label: 'following `next` from the middle of a sorted listing', short: 'next, from the middle' },
  { key: 'filter', label: '`filter=publication_year:Y`', short: 'filter=publication_year:Y' },
];

export interface LatencyFigures {
  /** Milliseconds of each measured request, in order. */
  samplesMs: number[];
  medianMs: number;
  p90Ms: number;
  /** Why the scenario has no figures. */
  error?: string;
}

/**
 * Requests made before measuring, to load code paths and let V8 optimise them: page 2 of every scenario
 * (measured requests all ask page 1 or follow cursors, so none is asked twice), then a few per scenario.
 */
const WARM_UP_PAGES = 20;
const WARM_UP = 3;
/** `next` links followed from each middle page. */
const STEPS_PER_CHAIN = 10;

export async function measureListings(
  baseUrl: string,
  catalogue: Catalogue,
  samples: number,
  onScenario: (scenario: ListingScenario, figures: LatencyFigures) => void,
): Promise<Record<string, LatencyFigures>> {
  const results: Record<string, LatencyFigures> = {};
  const count = WARM_UP + samples;
  for (const scenario of listingScenarios) {
    if (scenario.key !== 'next') await timeEach(baseUrl, listingPaths(scenario.key, WARM_UP_PAGES, catalogue, 2));
  }
  for (const scenario of listingScenarios) {
    let times: number[];
    try {
      times =
        scenario.key === 'next'
          ? await followNextFromMiddle(baseUrl, count)
          : await timeEach(baseUrl, listingPaths(scenario.key, count, catalogue, 1));
    } catch (error) {
      // One failing scenario (a 503 past the statement budget, say) leaves the others their figures.
      const message = error instanceof Error ? error.message : String(error);
      results[scenario.key] = { samplesMs: [], medianMs: Number.NaN, p90Ms: Number.NaN, error: message };
      onScenario(scenario, results[scenario.key] as LatencyFigures);
      continue;
    }
    const measured = times.slice(WARM_UP);
    const figures = {
      samplesMs: measured.map(round2),
      medianMs: round2(median(measured)),
      p90Ms: round2(percentile(measured, 90)),
    };
    results[scenario.key] = figures;
    onScenario(scenario, figures);
  }
  return results;
}

/** `count` distinct request paths for a scenario, each asking page `page`. */
function listingPaths(key: string, count: number, catalogue: Catalogue, page: number): string[] {
  const authors = distinctRandom(count, 1, catalogue.authors);
  const years = distinctRandom(count, 1500, 2025);
  return Array.from({ length: count }, (_, i) => {
    // 10…100: at most 91 distinct page sizes, more than any run asks for.
    const perPage = 10 + (i % 91);
    switch (key) {
      case 'page1':
        return `/books?page=${page}&per_page=${perPage}`;
      case 'sorted':
        return `/books?page=${page}&per_page=${perPage}&sort=-publication_year`;
      case 'author':
        return `/books?page=${page}&per_page=20&author=${encodeURIComponent(`Author ${authors[i]}`)}`;
      case 'search':
        return `/books?page=${page}&per_page=${perPage}&query=${COMMON_WORDS[i % COMMON_WORDS.length]}`;
      case 'filter':
        return `/books?page=${page}&per_page=20&filter=publication_year:${years[i]}`;
      default:
        throw new Error(`unknown listing scenario ${key}`);
    }
  });
}

/**
 * Jumps to the middle page of a listing sorted by year (not measured: a `page=N` jump is allowed to cost
 * more), then follows its `next` links, timing each. Each chain has its own page size, so no page repeats.
 */
async function followNextFromMiddle(baseUrl: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let chain = 0; times.length < count; chain++) {
    const perPage = 20 + chain;
    const listing = `/books?per_page=${perPage}&sort=-publication_year`;
    const first = await getJson(baseUrl, `${listing}&page=1`);
    const middle = Math.max(1, Math.floor(Number(first.body.meta?.total_pages ?? 1) / 2));
    let next = nextLink((await getJson(baseUrl, `${listing}&page=${middle}`)).body);
    if (!next) throw new Error(`${listing}&page=${middle} has no next link: the catalogue is too small`);
    for (let step = 0; step < STEPS_PER_CHAIN && next && times.length < count; step++) {
      const page = await getJson(baseUrl, next);
      times.push(page.ms);
      next = nextLink(page.body);
    }
  }
  return times;
}

interface Envelope {
  meta?: { total_pages?: number };
  links?: { rel: string; href: string }[];
}

function nextLink(body: Envelope): string | undefined {
  const href = body.links?.find((link) => link.rel === 'next')?.href;
  if (href === undefined) return undefined;
  // Path-absolute today; an absolute href (CATALOGUE_PUBLIC_URL) is reduced to its path and query.
  const url = new URL(href, 'http://catalogue.invalid');
  return url.pathname + url.search;
}

async function timeEach(baseUrl: string, paths: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const path of paths) times.push((await getJson(baseUrl, path)).ms);
  return times;
}

/** One request, timed from sending to the last byte of the body. */
async function getJson(baseUrl: string, path: string): Promise<{ ms: number; body: Envelope }> {
  const started = performance.now();
  const response = await fetch(baseUrl + path, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as Envelope };
}

/** `count` different whole numbers from `min` to `max` (fewer if the range is smaller), in random order. */
function distinctRandom(count: number, min: number, max: number): number[] {
  const chosen = new Set<number>();
  const span = max - min + 1;
  while (chosen.size < Math.min(count, span)) chosen.add(min + Math.floor(Math.random() * span));
  const list = [...chosen];
  // A range smaller than the count repeats values; only a tiny catalogue has fewer authors than samples.
  return Array.from({ length: count }, (_, i) => list[i % list.length] as number);
}

const round2 = (n: number) => Math.round(n * 100) / 100;
