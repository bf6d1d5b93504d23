/**
 * Live change streams catch up on what is already there as fast as their clients read it: ten event-stream
 * clients of a feed of over a thousand events each receive all of them within seconds, while writers run
 * and a probe of `/health` keeps answering promptly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, type RunningServer, startServer } from '../support/server.js';
import { SseReader } from '../support/sse.js';
import { quantile, reportFigure } from './figures.js';

/** Generated books: each is an event, and so is each of their authors. */
const BOOKS = 1_000;
const CLIENTS = 10;
/** A stream catching up sends batch after batch, without waiting for a write or its 15 s keep-alive. */
const CATCH_UP_MS = 5_000;
const HEALTH_MS = 1_000;
const WRITING_MS = 3_000;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ books: BOOKS, env: { CATALOGUE_RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await server?.stop();
});

/** How many events the feed holds now, counted by paging it. */
async function eventsInFeed(): Promise<number> {
  let count = 0;
  for (let href = '/changes'; ; ) {
    const page = (await (await fetch(new URL(href, server.url))).json()) as {
      data: unknown[];
      links: { rel: string; href: string }[];
    };
    if (page.data.length === 0) return count;
    count += page.data.length;
    href = page.links.find((link) => link.rel === 'next')?.href as string;
  }
}

/** Writes books as the librarian until `until` says stop; answers how many it wrote. */
async function writeBooks(until: () => boolean): Promise<number> {
  const author = (await (await call(server, ADMIN_TOKEN, 'POST', '/authors', { name: 'Feed Writer' })).json()) as {
    id: number;
  };
  let written = 0;
  while (!until()) {
    const response = await call(server, ADMIN_TOKEN, 'POST', '/books', {
      title: `Written While Streaming ${written}`,
      publication_year: 2000,
      author_id: author.id,
    });
    expect(response.status).toBe(201);
    await response.arrayBuffer();
    written++;
  }
  return written;
}

describe('change streams over a backlog', () => {
  it(`deliver an idle feed's ${BOOKS}+ events to each of ${CLIENTS} clients within seconds; then, with writers running, /health stays fast`, async () => {
    const backlog = await eventsInFeed();
    expect(backlog).toBeGreaterThanOrEqual(BOOKS);

    // Nothing is written meanwhile: no notification can wake a stream that waits before its next page.
    const started = performance.now();
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const response = await fetch(new URL('/changes', server.url), { headers: { Accept: 'text/event-stream' } });
        expect(response.status).toBe(200);
        const reader = new SseReader(response);
        const events = await reader.events(backlog);
        expect(new Set(events.map((event) => event.id)).size).toBe(backlog);
        return { reader, took: performance.now() - started };
      }),
    );
    const slowest = Math.max(...clients.map((client) => client.took));
    reportFigure(
      `slowest of ${CLIENTS} streams to receive an idle feed's ${backlog} events`,
      slowest,
      'ms',
      `bound: ${CATCH_UP_MS} ms; before: 15 s per 100 events`,
    );
    expect(slowest).toBeLessThan(CATCH_UP_MS);

    // The ten streams stay connected while a writer runs for a few seconds and a probe asks for /health.
    const until = performance.now() + WRITING_MS;
    const health: number[] = [];
    const [written] = await Promise.all([
      writeBooks(() => performance.now() > until),
      (async () => {
        while (performance.now() < until) {
          const asked = performance.now();
          const response = await fetch(new URL('/health', server.url), { signal: AbortSignal.timeout(5_000) });
          await response.arrayBuffer();
          expect(response.status).toBe(200);
          health.push(performance.now() - asked);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
    ]);
    // Each new book is two events (the book and its first copy), the writer's author one more.
    for (const { reader } of clients) {
      expect((await reader.events(2 * written + 1)).at(-1)?.event).toBe('copy.added');
      await reader.cancel();
    }
    reportFigure(
      `/health p99 with ${CLIENTS} streams and a writer (${written} books, ${health.length} probes)`,
      quantile(health, 0.99),
      'ms',
      `bound: ${HEALTH_MS} ms`,
    );
    expect(Math.max(...health)).toBeLessThan(HEALTH_MS);
  });
});
