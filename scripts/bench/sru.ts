/**
 * @module SRU's searchRetrieve against the JSON search for the same words, in one run: on the full run's
 * largest catalogue while it is still as generated (before anything writes to it), or alone on a catalogue
 * of its own (`bench_sru`, the largest of `--sizes`); one server, one request at a time in turns, ten records each:
 * `/sru?query="<adjective> <word>"&maximumRecords=10` (MARCXML, the default schema) and
 * `/books?query=<adjective> <word>&per_page=10` (JSON). Each pair's words differ from every other pair's, so
 * no cache answers either; the latencies are compared at p50.
 */
import { ADJECTIVES, COMMON_WORDS } from '../../src/db/generate.js';
import { type Catalogue, catalogueEnv, postgresCatalogue } from './catalogues.js';
import { catalogueEntry, type Server, startServer } from './processes.js';
import { median, percentile, round2 } from './stats.js';

/** searchRetrieve's p50 at most this many times the JSON search's. */
export const SRU_TARGET = 1.5;
/** Searches of each kind measured per round. */
export const SRU_PER_ROUND = 40;
/** Searches of each kind before measuring: the server's code paths and statements warmed up. */
const WARM_UP = 20;
/** Records each answer carries. */
const RECORDS = 10;

export interface SruLatency {
  p50Ms: number;
  p90Ms: number;
}

export interface SruFigures {
  books: number;
  rounds: number;
  /** Searches of each kind measured. */
  samples: number;
  searchRetrieve: SruLatency;
  json: SruLatency;
  /** searchRetrieve's p50 over the JSON search's: the target's figure. */
  ratio: number;
}

/**
 * Serves the catalogue given (a generated one, not yet written to) or makes its own, warms up, measures
 * `rounds` rounds; stops the server, and drops the catalogue it made.
 */
export async function measureSru(
  settings: {
    serverUrl: string;
    books: number;
    keep: boolean;
    rounds: number;
    logDir: string;
    catalogue?: Catalogue | undefined;
  },
  log: (line: string) => void,
): Promise<SruFigures> {
  const given = settings.catalogue;
  if (!given) log(`generating ${settings.books.toLocaleString('en')} books in bench_sru`);
  const catalogue = given ?? (await postgresCatalogue(settings.serverUrl, settings.books, settings.keep, 'bench_sru'));
  let server: Server | undefined;
  try {
    server = await startServer({
      name: 'sru',
      args: catalogueEntry('server'),
      env: { ...catalogueEnv, ...catalogue.env },
      readyPath: '/health',
      logDir: settings.logDir,
      timeoutMs: 300_000,
    });
    const search = searcher(server);
    // The warm-up's words from the other end of the list than the measured searches'.
    for (let i = 0; i < WARM_UP; i++) {
      await search('sru', -1 - i);
      await search('json', -1 - i);
    }
    const times = { sru: [] as number[], json: [] as number[] };
    for (let round = 0; round < settings.rounds; round++) {
      // Which goes first alternates by round, so neither always finds the other's pages in the cache.
      const order = round % 2 === 0 ? (['sru', 'json'] as const) : (['json', 'sru'] as const);
      const before = { sru: times.sru.length, json: times.json.length };
      for (let i = 0; i < SRU_PER_ROUND; i++) {
        const n = round * SRU_PER_ROUND + i;
        for (const kind of order) times[kind].push(await search(kind, n));
      }
      const p50 = (kind: 'sru' | 'json') => median(times[kind].slice(before[kind])).toFixed(2);
      log(`round ${round + 1}: searchRetrieve p50 ${p50('sru')} ms, JSON search p50 ${p50('json')} ms`);
    }
    const latency = (samples: number[]): SruLatency => ({
      p50Ms: round2(median(samples)),
      p90Ms: round2(percentile(samples, 90)),
    });
    return {
      books: catalogue.books,
      rounds: settings.rounds,
      samples: times.sru.length,
      searchRetrieve: latency(times.sru),
      json: latency(times.json),
      ratio: round2(median(times.sru) / median(times.json)),
    };
  } finally {
    await server?.stop();
    if (!given) await catalogue.drop();
  }
}

/** The `n`th two words (`silent garden`): an adjective and a common word, as the listings' two-word search. */
function wordsOf(n: number): string {
  const i = ((n % 100_000) + 100_000) % 100_000;
  const word = COMMON_WORDS[i % COMMON_WORDS.length] as string;
  const adjective = ADJECTIVES[Math.floor(i / COMMON_WORDS.length) % ADJECTIVES.length] as string;
  return `${adjective} ${word}`;
}

/** Searches for the `n`th words as SRU or JSON; answers the milliseconds to the last byte. Anything but 200 fails. */
function searcher(server: Server): (kind: 'sru' | 'json', n: number) => Promise<number> {
  return async (kind, n) => {
    const words = wordsOf(n);
    const path =
      kind === 'sru'
        ? `/sru?query=${encodeURIComponent(`"${words}"`)}&maximumRecords=${RECORDS}`
        : `/books?query=${encodeURIComponent(words)}&per_page=${RECORDS}`;
    const headers: Record<string, string> = kind === 'json' ? { accept: 'application/json' } : {};
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 300)}`);
    if (kind === 'sru' && body.includes('<diag:diagnostic')) throw new Error(`GET ${path}: ${body.slice(0, 300)}`);
    return elapsed;
  };
}
