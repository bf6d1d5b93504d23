/**
 * @module Listing latency: single sequential requests, each one not asked before (the page size, word,
 * year, name or prefix changes between requests), so that no result or count cache answers them. The same
 * scenarios run at every catalogue size; what matters is how their latency grows with the size.
 */
import { parse } from 'uri-template';
import { ADJECTIVES, COMMON_WORDS, NOUNS } from '../../src/db/generate.js';
import type { Catalogue } from './catalogues.js';
import { median, percentile, round2 } from './stats.js';

export interface ListingScenario {
  key: string;
  /** What the requests look like, for the report. */
  label: string;
  /** A few plain words, for the chart's legend. */
  short: string;
  /**
   * Its targets: the median at the largest size at most `growth` times the smallest's, and at most `p50Ms`;
   * at every size, at most `against.ratio` times the median of the scenario `against.key`, measured in the
   * same turns (what one difference in the requests costs, whatever the size does).
   */
  targets: { growth?: number; p50Ms?: number; against?: { key: string; ratio: number } };
}

/** The median of a listing may grow this much from the smallest catalogue to the largest. */
const GROWTH = 1.5;

export const listingScenarios: ListingScenario[] = [
  { key: 'page1', label: '`/books?page=1&per_page=P`', short: 'page 1', targets: { growth: GROWTH } },
  {
    key: 'sorted',
    label: 'same, `sort=-publication_year`',
    short: 'sort=-publication_year',
    targets: { growth: GROWTH },
  },
  { key: 'author', label: '`author=Author N`', short: 'author=Author N', targets: { growth: GROWTH } },
  {
    key: 'author-share',
    label: '`author=Author NN`: a prefix naming a fixed 1.1% of the authors (and of the books)',
    short: 'author=Author NN (1.1%)',
    targets: { growth: GROWTH },
  },
  {
    key: 'search',
    label: '`query=<word in 10% of titles>`',
    short: 'query (word in 10%)',
    targets: { growth: GROWTH, p50Ms: 50 },
  },
  {
    key: 'spelled',
    label: '`query=<adjective> <common word>`: two words spelled right',
    short: 'query, two words',
    targets: {},
  },
  {
    key: 'typo',
    label: '`query=<adjective> <common word with a letter dropped>`: one misspelt word of two',
    short: 'query, one word misspelt',
    // Forgiving a typo costs at most half again the same words spelled right. The misspelt search's own
    // growth from 10k to 1M is not a target: its exact count of matches grows with the catalogue.
    targets: { p50Ms: 50, against: { key: 'spelled', ratio: 1.5 } },
  },
  {
    key: 'facets',
    label: '`query=<word in 10% of titles>&facets=author,decade,available`',
    short: 'query with facets',
    targets: { p50Ms: 100 },
  },
  {
    key: 'suggest',
    label: "the root's `suggestions` link, `query=<4-letter prefix>`",
    short: 'suggestions (4 letters)',
    targets: { p50Ms: 20 },
  },
  {
    key: 'next',
    label: 'following `next` from the middle of a sorted listing',
    short: 'next, from the middle',
    targets: { growth: GROWTH },
  },
  {
    key: 'filter',
    label: '`filter=publication_year:Y`',
    short: 'filter=publication_year:Y',
    targets: { growth: GROWTH },
  },
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

/** One catalogue the listings are measured on: its size, and the server answering from it. */
export interface ListingTarget {
  size: number;
  baseUrl: string;
  catalogue: Catalogue;
}

/** Takes one measured request of a scenario and answers its milliseconds. */
type Step = () => Promise<number>;

/**
 * Measures every scenario at every size. The sizes take turns request by request (the first size first on
 * even turns, last on odd ones), so that what the machine is doing meanwhile falls on all of them alike:
 * a scenario's growth is a ratio of figures taken in the same seconds, not minutes apart.
 */
export async function measureListings(
  targets: ListingTarget[],
  samples: number,
  onScenario: (size: number, scenario: ListingScenario, figures: LatencyFigures) => void,
): Promise<Record<number, Record<string, LatencyFigures>>> {
  const results: Record<number, Record<string, LatencyFigures>> = {};
  const count = WARM_UP + samples;
  const prepared = [];
  for (const target of targets) {
    results[target.size] = {};
    const suggestions = await suggestionsTemplate(target.baseUrl);
    const material = { catalogue: target.catalogue, suggestions, count: WARM_UP_PAGES + count };
    prepared.push({ ...target, material, failed: await warmUp(target.baseUrl, material) });
  }
  for (const scenario of listingScenarios) {
    const running = prepared.map((target) => ({
      size: target.size,
      times: [] as number[],
      error: target.failed.get(scenario.key),
      step: scenario.key === 'next' ? nextFromMiddle(target.baseUrl) : pathSteps(target, scenario.key, count),
    }));
    for (let turn = 0; turn < count; turn++) {
      for (const run of turn % 2 === 0 ? running : [...running].reverse()) {
        if (run.error !== undefined) continue;
        try {
          run.times.push(await run.step());
        } catch (error) {
          // One failing scenario (a 503 past the statement budget, say) leaves the others their figures.
          run.error = error;
        }
      }
    }
    for (const run of running) {
      const figures = run.error !== undefined ? failedFigures(run.error) : figuresOf(run.times.slice(WARM_UP));
      (results[run.size] as Record<string, LatencyFigures>)[scenario.key] = figures;
      onScenario(run.size, scenario, figures);
    }
  }
  return results;
}

/**
 * Page 2 of every scenario at one size, to load code paths and let V8 optimise them (measured requests
 * all ask page 1 or follow cursors, so none is asked twice). Answers the scenarios that failed, with why:
 * a scenario the catalogue cannot answer (no suggestions link, say) is reported, not measured.
 */
async function warmUp(baseUrl: string, material: RequestMaterial): Promise<Map<string, unknown>> {
  const failed = new Map<string, unknown>();
  for (const scenario of listingScenarios) {
    if (scenario.key === 'next') continue;
    try {
      await timeEach(baseUrl, listingPaths(scenario.key, WARM_UP_PAGES, material, 2));
    } catch (error) {
      failed.set(scenario.key, error);
    }
  }
  return failed;
}

/** The requests of a scenario at one size, one per step. */
function pathSteps(target: { baseUrl: string; material: RequestMaterial }, key: string, count: number): Step {
  // Drawn on the first step: a scenario that failed its warm-up never draws its words.
  let paths: string[] | undefined;
  let next = 0;
  return async () => {
    paths ??= listingPaths(key, count, target.material, 1);
    return (await getJson(target.baseUrl, paths[next++] as string)).ms;
  };
}

/** The figures of measured milliseconds. */
export function figuresOf(measured: number[]): LatencyFigures {
  return {
    samplesMs: measured.map(round2),
    medianMs: round2(median(measured)),
    p90Ms: round2(percentile(measured, 90)),
  };
}

function failedFigures(error: unknown): LatencyFigures {
  const message = error instanceof Error ? error.message : String(error);
  return { samplesMs: [], medianMs: Number.NaN, p90Ms: Number.NaN, error: message };
}

/** What a scenario's requests are made of. */
interface RequestMaterial {
  catalogue: Catalogue;
  /** The root's `suggestions` link (RFC 6570), when it has one. */
  suggestions: string | undefined;
  /** How many requests a scenario makes in all, warm-up and measured: words are drawn apart for each. */
  count: number;
}

/**
 * `count` distinct request paths for a scenario, each asking page `page`. Page 2 is the warm-up's; where
 * the words change with every request (a misspelt search, a prefix), the warm-up draws them apart from
 * the measured requests, so that neither repeats the other even where a request has no page.
 */
function listingPaths(key: string, count: number, material: RequestMaterial, page: number): string[] {
  const { catalogue } = material;
  const authors = distinctRandom(count, 1, catalogue.authors);
  const years = distinctRandom(count, 1500, 2025);
  // Two-digit prefixes name 1 + 10 + 100 + … authors of every power of ten: 1.1% of them (1% below 1,000).
  const shares = distinctRandom(count, 10, 99);
  return Array.from({ length: count }, (_, i) => {
    // 10…100: at most 91 distinct page sizes, more than any run asks for.
    const perPage = 10 + (i % 91);
    // Words drawn by number: the warm-up's from the other end of the numbers than the measured requests'.
    const drawn = (n: number) => (page === 1 ? n : material.count - 1 - n);
    const word = COMMON_WORDS[i % COMMON_WORDS.length] as string;
    switch (key) {
      case 'page1':
        return `/books?page=${page}&per_page=${perPage}`;
      case 'sorted':
        return `/books?page=${page}&per_page=${perPage}&sort=-publication_year`;
      case 'author':
        return `/books?page=${page}&per_page=20&author=${encodeURIComponent(`Author ${authors[i]}`)}`;
      case 'author-share':
        return `/books?page=${page}&per_page=${perPage}&author=${encodeURIComponent(`Author ${shares[i]}`)}`;
      case 'search':
        return `/books?page=${page}&per_page=${perPage}&query=${word}`;
      case 'spelled':
        return `/books?page=${page}&per_page=${perPage}&query=${encodeURIComponent(twoWordSearch(drawn(i)))}`;
      case 'typo':
        return `/books?page=${page}&per_page=${perPage}&query=${encodeURIComponent(misspeltSearch(drawn(i)))}`;
      case 'facets':
        return `/books?page=${page}&per_page=${perPage}&query=${word}&facets=author,decade,available`;
      case 'suggest':
        return suggestionsPath(material, drawn(i));
      case 'filter':
        return `/books?page=${page}&per_page=20&filter=publication_year:${years[i]}`;
      default:
        throw new Error(`unknown listing scenario ${key}`);
    }
  });
}

/**
 * The `i`th two-word search of an adjective and a common word with one letter dropped (neither the first,
 * which people seldom miss, nor the last, which would leave a prefix of the word), one edit from the word
 * (`silent grden`). Every title has an adjective and a
 * common word, so each search means about 0.3% of the titles (1 in 38 × 10), at every size. The word,
 * the adjective and the letter change from one request to the next.
 */
function misspeltSearch(i: number): string {
  const { adjective, word } = searchWords(i);
  const dropped = 1 + (Math.floor(i / 3) % (word.length - 2));
  return `${adjective} ${word.slice(0, dropped)}${word.slice(dropped + 1)}`;
}

/** The `i`th misspelt search's two words, spelled right (`silent garden`): what its typo is compared with. */
function twoWordSearch(i: number): string {
  const { adjective, word } = searchWords(i);
  return `${adjective} ${word}`;
}

function searchWords(i: number): { adjective: string; word: string } {
  return {
    word: COMMON_WORDS[i % COMMON_WORDS.length] as string,
    adjective: ADJECTIVES[Math.floor(i / COMMON_WORDS.length) % ADJECTIVES.length] as string,
  };
}

/** The distinct 4-letter beginnings of the generated titles' words, in a fixed shuffled order. */
const PREFIXES = [...new Set([...COMMON_WORDS, ...ADJECTIVES, ...NOUNS].map((word) => word.slice(0, 4)))]
  .filter((prefix) => prefix.length === 4)
  .sort((a, b) => hash(a) - hash(b));

function suggestionsPath(material: RequestMaterial, i: number): string {
  if (material.suggestions === undefined) throw new Error('the root document has no `suggestions` link');
  const prefix = PREFIXES[((i % PREFIXES.length) + PREFIXES.length) % PREFIXES.length] as string;
  return pathOf(parse(material.suggestions).expand({ query: prefix }));
}

/** The root's `suggestions` link, as a client finds it. */
async function suggestionsTemplate(baseUrl: string): Promise<string | undefined> {
  const root = await getJson(baseUrl, '/');
  return root.body.links?.find((link) => link.rel === 'suggestions')?.href;
}

/** A small stable hash, to shuffle a list the same way in every run. */
function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ (char.codePointAt(0) as number), 16777619) >>> 0;
  return h;
}

/**
 * Steps along `next` links from the middle page of a listing sorted by year, timing each. Reaching the
 * middle is not measured (a `page=N` jump is allowed to cost more); each chain of `STEPS_PER_CHAIN` has
 * its own page size, so no page repeats.
 */
function nextFromMiddle(baseUrl: string): Step {
  let chain = 0;
  let steps = 0;
  let next: string | undefined;
  return async () => {
    if (next === undefined || steps === STEPS_PER_CHAIN) {
      const listing = `/books?per_page=${20 + chain++}&sort=-publication_year`;
      const first = await getJson(baseUrl, `${listing}&page=1`);
      const middle = Math.max(1, Math.floor(Number(first.body.meta?.total_pages ?? 1) / 2));
      next = nextLink((await getJson(baseUrl, `${listing}&page=${middle}`)).body);
      if (!next) throw new Error(`${listing}&page=${middle} has no next link: the catalogue is too small`);
      steps = 0;
    }
    const page = await getJson(baseUrl, next);
    steps++;
    next = nextLink(page.body);
    return page.ms;
  };
}

interface Envelope {
  meta?: { total_pages?: number };
  links?: { rel: string; href: string }[];
}

function nextLink(body: Envelope): string | undefined {
  const href = body.links?.find((link) => link.rel === 'next')?.href;
  return href === undefined ? undefined : pathOf(href);
}

/** Path-absolute today; an absolute href (CATALOGUE_PUBLIC_URL) is reduced to its path and query. */
function pathOf(href: string): string {
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
