/**
 * Benchmark: streaming a large bare collection. Loads N books (default 200000) into a fresh database
 * (PGlite in memory, or DATABASE_URL), then reads `GET /books` through the app, reporting time, bytes and
 * the peak heap and RSS growth while streaming — which should stay flat however large N is.
 *
 *   node --expose-gc --import tsx scripts/bench-stream.ts [N]
 */
import { createApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { authors, books } from '../src/db/schema/index.js';

const total = Number(process.argv[2] ?? 200_000);
const url = process.env.DATABASE_URL;
if (url) throw new Error('run against an empty database: unset DATABASE_URL (PGlite) for this benchmark');
const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
await prepareDatabase(database, { seedSample: false });
const { db } = database;

const [author] = await db.insert(authors).values({ name: 'Benchmark Author' }).returning({ id: authors.id });
const loadStart = performance.now();
for (let i = 0; i < total; i += 5000) {
  const rows = Array.from({ length: Math.min(5000, total - i) }, (_, j) => ({
    title: `Benchmark book ${i + j}`,
    publicationYear: 1900 + ((i + j) % 120),
    authorId: author?.id ?? 1,
  }));
  await db.insert(books).values(rows);
}
const loadSeconds = (performance.now() - loadStart) / 1000;

const app = createApp({ database });
global.gc?.();
const before = process.memoryUsage();
let peakHeap = before.heapUsed;
let peakRss = before.rss;
const start = performance.now();
const response = await app.request('/books');
const reader = response.body?.getReader();
if (!reader) throw new Error('no body');
let bytes = 0;
let chunks = 0;
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  bytes += value.byteLength;
  chunks++;
  if (chunks % 50 === 0) {
    // Live memory, not garbage waiting for collection: run with --expose-gc.
    global.gc?.();
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }
}
const seconds = (performance.now() - start) / 1000;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(`books loaded:        ${total} in ${loadSeconds.toFixed(1)} s`);
console.log(
  `streamed:            ${mb(bytes)} in ${chunks} chunks, ${seconds.toFixed(2)} s (${Math.round(total / seconds)} books/s)`,
);
console.log(`heap before/peak:    ${mb(before.heapUsed)} / ${mb(peakHeap)} (growth ${mb(peakHeap - before.heapUsed)})`);
console.log(`rss before/peak:     ${mb(before.rss)} / ${mb(peakRss)} (growth ${mb(peakRss - before.rss)})`);
await database.close();
