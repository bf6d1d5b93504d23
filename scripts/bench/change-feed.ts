/**
 * @module Live change streams catching up a backlog: several event-stream clients of `GET /changes` at
 * once, each reading every event the feed holds, on PostgreSQL. Measures events delivered per second and
 * the server's CPU per event, with the catalogue's page writer (one text per page) and with `writeSSE` once
 * per event, in interleaved rounds on two servers of the same entry (scripts/bench/change-feed-server.ts).
 */
import { request } from 'node:http';
import { type Catalogue, catalogueEnv } from './catalogues.js';
import { cpuSecondsOf, repoRoot, type Server, sleep, startServer } from './processes.js';
import { median, round2 } from './stats.js';

/** The catalogue's writer must deliver at least this many times the per-event writer's events per second. */
export const CHANGE_FEED_TARGET = 1.1;
/** Books of the scenario's own catalogue: its feed holds each of them and each of their authors. */
export const CHANGE_FEED_BOOKS = 4_000;
/** Streams catching up at once. */
export const CHANGE_FEED_STREAMS = 10;

/** The page writers compared, as CHANGE_FEED_WRITER names them. */
const WRITERS = ['page', 'per-event'] as const;
type Writer = (typeof WRITERS)[number];

/** One catch-up: every stream reading the whole backlog. */
export interface CatchUp {
  eventsPerSecond: number;
  cpuMicrosPerEvent: number;
}

export interface WriterFigures {
  /** Medians of the runs. */
  eventsPerSecond: number;
  cpuMicrosPerEvent: number;
  runs: CatchUp[];
}

export interface ChangeFeedFigures {
  streams: number;
  /** Events each stream reads: the whole feed. */
  backlog: number;
  rounds: number;
  page: WriterFigures;
  perEvent: WriterFigures;
  /** The page writer's events/s over the per-event writer's: the target's figure. */
  ratio: number;
  /** The per-event writer's CPU per event over the page writer's. */
  cpuRatio: number;
}

const CATCH_UP_TIMEOUT_MS = 120_000;

/**
 * Starts a server of each writer on `catalogue`, catches both up once to warm them, then `rounds` times
 * each, in turns whose order alternates; stops them.
 */
export async function measureChangeFeed(
  catalogue: Catalogue,
  settings: { rounds: number; logDir: string },
  log: (line: string) => void,
): Promise<ChangeFeedFigures> {
  const servers = new Map<Writer, Server>();
  try {
    for (const writer of WRITERS) {
      servers.set(
        writer,
        await startServer({
          name: `change-feed-${writer}`,
          args: ['--import', 'tsx', `${repoRoot}scripts/bench/change-feed-server.ts`],
          env: { ...catalogueEnv, ...catalogue.env, CHANGE_FEED_WRITER: writer },
          readyPath: '/health',
          logDir: settings.logDir,
        }),
      );
    }
    const backlog = await eventsInFeed((servers.get('page') as Server).url);
    const runs = new Map<Writer, CatchUp[]>(WRITERS.map((writer) => [writer, []]));
    for (const writer of WRITERS) await catchUp(servers.get(writer) as Server, backlog);
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? WRITERS : [...WRITERS].reverse();
      for (const writer of order) {
        const run = await catchUp(servers.get(writer) as Server, backlog);
        runs.get(writer)?.push(run);
        log(
          `round ${round + 1} ${writer.padEnd(9)} ${Math.round(run.eventsPerSecond).toLocaleString('en').padStart(8)} events/s, ${run.cpuMicrosPerEvent.toFixed(1)} µs CPU per event`,
        );
      }
    }
    const page = figuresOf(runs.get('page') ?? []);
    const perEvent = figuresOf(runs.get('per-event') ?? []);
    return {
      streams: CHANGE_FEED_STREAMS,
      backlog,
      rounds: settings.rounds,
      page,
      perEvent,
      ratio: round2(page.eventsPerSecond / perEvent.eventsPerSecond),
      cpuRatio: round2(perEvent.cpuMicrosPerEvent / page.cpuMicrosPerEvent),
    };
  } finally {
    for (const server of servers.values()) await server.stop();
  }
}

function figuresOf(runs: CatchUp[]): WriterFigures {
  return {
    eventsPerSecond: Math.round(median(runs.map((run) => run.eventsPerSecond))),
    cpuMicrosPerEvent: round2(median(runs.map((run) => run.cpuMicrosPerEvent))),
    runs: runs.map((run) => ({
      eventsPerSecond: Math.round(run.eventsPerSecond),
      cpuMicrosPerEvent: round2(run.cpuMicrosPerEvent),
    })),
  };
}

/** Opens every stream at once and waits until each has read `backlog` events; the server's CPU meanwhile. */
async function catchUp(server: Server, backlog: number): Promise<CatchUp> {
  const cpuBefore = cpuSecondsOf(server.pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: CHANGE_FEED_STREAMS }, () => readEvents(server.url, backlog)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSecondsOf(server.pid) - cpuBefore;
  const events = CHANGE_FEED_STREAMS * backlog;
  // The streams' ends (the server noticing each client gone) are not the next run's work.
  await sleep(500);
  return { eventsPerSecond: events / seconds, cpuMicrosPerEvent: (cpu * 1e6) / events };
}

/** How many events the feed holds, counted by paging it as JSON. */
async function eventsInFeed(baseUrl: string): Promise<number> {
  let count = 0;
  for (let href: string | undefined = '/changes?per_page=100'; href; ) {
    const response = await fetch(new URL(href, baseUrl), { headers: { accept: 'application/json' } });
    if (response.status !== 200) throw new Error(`GET ${href} answered ${response.status}`);
    const page = (await response.json()) as { data: unknown[]; links: { rel: string; href: string }[] };
    if (page.data.length === 0) break;
    count += page.data.length;
    href = page.links.find((link) => link.rel === 'next')?.href;
  }
  if (count === 0) throw new Error('the change feed is empty');
  return count;
}

/** An event's `id:` line: one per event whichever writer wrote it (a `data:` line holds no line break). */
const ID_LINE = Buffer.from('\nid: ');

/**
 * Reads the event stream from the oldest event until `events` events have come, counting `id:` lines where
 * the chunks lie, and hangs up. Fails on more than asked (nothing is written meanwhile) or a stream too slow.
 */
function readEvents(baseUrl: string, events: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/changes', baseUrl),
      { headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS) },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /changes as an event stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        let seen = 0;
        // The last bytes of the previous chunk: an `id:` line may begin there and end in this one.
        let carry = Buffer.alloc(0);
        response.on('data', (chunk: Buffer) => {
          const seam = Buffer.concat([carry, chunk.subarray(0, ID_LINE.length - 1)]);
          for (let at = seam.indexOf(ID_LINE); at !== -1 && at < carry.length; at = seam.indexOf(ID_LINE, at + 1)) {
            seen++;
          }
          for (let at = chunk.indexOf(ID_LINE); at !== -1; at = chunk.indexOf(ID_LINE, at + 1)) seen++;
          carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (ID_LINE.length - 1))));
          if (seen < events) return;
          req.destroy();
          if (seen > events) reject(new Error(`a stream sent ${seen} events of a feed of ${events}`));
          else resolve();
        });
        response.once('error', reject);
      },
    );
    // Once resolved, the error of hanging up changes nothing.
    req.once('error', reject);
    req.end();
  });
}
