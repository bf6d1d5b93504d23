/**
 * No number of slow clients may starve the others. Unpaged listings stream in short keyset batches, each
 * its own query, so a client that stops reading holds a socket and a paused generator, never a database
 * connection (PostgreSQL's pool has 10; PGlite has one). Measured with the rate limits off, so that the
 * streams really are 50: by default a caller may open only a few per minute.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_WORDS } from '../../src/db/generate.js';
import { type RunningServer, startServer } from '../support/server.js';
import { quantile, reportFigure, waitUntilIdle } from './figures.js';

/**
 * Clients that keep the server busy (rather than stalled ones) share its CPU with everyone: a probe
 * waits its turn behind a batch or a search, never behind a whole stream or queue of them. The bound
 * leaves room for a shared, noisy machine; the figure printed is the measurement.
 */
const FAIR_SHARE_MS = 1_000;
const FAIR_SHARE = `bound: ${FAIR_SHARE_MS} ms; before: seconds, or timeouts`;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ books: 20_000, env: { CATALOGUE_RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await server?.stop();
});

/** Asks for the whole catalogue and never reads the answer. */
function stalledReader(): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write('GET /books HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n');
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** Latencies of `count` sequential probes of each path, in ms; every probe must answer 200. */
async function probe(paths: string[], count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    for (const path of paths) {
      const started = performance.now();
      const response = await fetch(new URL(path, server.url), { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
  }
  return times;
}

describe('slow and stalled clients', () => {
  it('with 50 readers that stopped reading, /health and /books/1 answer with p99 under 100 ms', async () => {
    const readers = await Promise.all(Array.from({ length: 50 }, stalledReader));
    try {
      // Let every stream fill its socket's buffers and stall: the server has nothing left to do for them.
      await waitUntilIdle(server.pid);
      const times = await probe(['/health', '/books/1'], 100);
      reportFigure('p99 of /health and /books/1 with 50 stalled readers', quantile(times, 0.99), 'ms', 'bound: 100 ms');
      expect(quantile(times, 0.99)).toBeLessThan(100);
    } finally {
      for (const reader of readers) reader.destroy();
    }
  });

  it('while a client reads the whole catalogue as fast as it can, others are still answered promptly', async () => {
    let streamed = 0;
    const reading = fetch(new URL('/books', server.url), { headers: { accept: 'application/json' } }).then(
      async (response) => {
        if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
        for await (const chunk of response.body ?? []) streamed += chunk.length;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const times = await probe(['/health', '/books/1'], 30);
    await reading;
    reportFigure('p99 of /health and /books/1 during a full-speed stream', quantile(times, 0.99), 'ms', FAIR_SHARE);
    expect(streamed).toBeGreaterThan(20_000 * 50);
    expect(quantile(times, 0.99)).toBeLessThan(FAIR_SHARE_MS);
  });

  it('16 clients repeating the longest search allowed still leave /health and /books/1 their turn', async () => {
    // As costly as a search may be: 500 characters, 16 words, eight common ones (each in a tenth of the
    // titles) joined by `or`, so that most of the catalogue matches.
    const words = COMMON_WORDS.slice(0, 8).join(' or ');
    const query = encodeURIComponent(`${words} ${'x'.repeat(500 - words.length - 1)}`);
    let running = true;
    const searchers = Array.from({ length: 16 }, async () => {
      let searches = 0;
      const statuses = new Set<number>();
      while (running) {
        const response = await fetch(new URL(`/books?query=${query}&per_page=20`, server.url));
        await response.arrayBuffer();
        statuses.add(response.status);
        searches++;
      }
      return { searches, statuses };
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const times = await probe(['/health', '/books/1'], 50);
    running = false;
    const done = await Promise.all(searchers);
    const searches = done.reduce((sum, searcher) => sum + searcher.searches, 0);
    // Searches are answered, or told to come back (503 + Retry-After) when too many wait: never an error.
    for (const searcher of done) for (const status of searcher.statuses) expect([200, 503]).toContain(status);
    reportFigure(
      'p99 of /health and /books/1 under 16 looping 500-character searches',
      quantile(times, 0.99),
      'ms',
      FAIR_SHARE,
    );
    reportFigure('searches answered meanwhile', searches, '', 'no bound');
    expect(quantile(times, 0.99)).toBeLessThan(FAIR_SHARE_MS);
  });
});
