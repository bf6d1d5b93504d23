/**
 * @module The unpaginated `GET /books`: every book in one streamed array (JSON), or one `<collection>`
 * (MARCXML). Measures books per second and how far the server's resident memory rises above its idle level
 * while streaming, sampling /proc/<pid>/status (VmRSS) and reading the kernel's peak (VmHWM, reset first
 * through clear_refs).
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { memoryOf, type Server, sleep } from './processes.js';

export interface StreamFigures {
  books: number;
  bytes: number;
  /** The median stream's. */
  seconds: number;
  /** The median of the streams'. */
  booksPerSecond: number;
  /** Each stream's, in the order they ran (absent from the results of runs that streamed once). */
  runsBooksPerSecond?: number[];
  idleRssMiB: number;
  /** The highest of all the streams. */
  peakRssMiB: number;
  /** Peak over idle: the figure the target bounds. */
  growthMiB: number;
}

const SAMPLE_EVERY_MS = 20;

/** A format the catalogue is streamed in: what `Accept` asks for, and what opens every book and nothing else. */
export interface StreamedFormat {
  accept: string;
  itemStart: string;
}

export const JSON_STREAM: StreamedFormat = { accept: 'application/json', itemStart: '{"id":' };
export const MARCXML_STREAM: StreamedFormat = { accept: 'application/marcxml+xml', itemStart: '<record>' };

/**
 * Streams `/books` `runs` times, one after the other, from a server started for this alone, so that earlier
 * load has not raised its memory. One stream is one sample of a shared machine's two cores (the reader is on
 * them too): the rate is the median stream's, the memory the highest peak any of them reached.
 */
export async function measureStream(
  server: Server,
  books: number,
  format: StreamedFormat = JSON_STREAM,
  runs = 3,
): Promise<StreamFigures> {
  // Idle: after the code paths are loaded and the first allocations settled.
  await (await fetch(`${server.url}/books?page=1&per_page=100`)).arrayBuffer();
  await sleep(1000);
  const idle = memoryOf(server.pid).rss;
  resetPeak(server.pid);
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(server.pid).rss);
  }, SAMPLE_EVERY_MS);
  const streams: Stream[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const read = await download(`${server.url}/books`, format);
      if (read.items !== books) {
        throw new Error(`GET /books as ${format.accept} streamed ${read.items} books, expected ${books}`);
      }
      streams.push({ bytes: read.bytes, seconds: (performance.now() - started) / 1000 });
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, memoryOf(server.pid).hwm);
  const middle = [...streams].sort((a, b) => a.seconds - b.seconds)[Math.floor(streams.length / 2)] as Stream;
  const mib = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return {
    books,
    bytes: middle.bytes,
    seconds: Math.round(middle.seconds * 100) / 100,
    booksPerSecond: Math.round(books / middle.seconds),
    runsBooksPerSecond: streams.map((stream) => Math.round(books / stream.seconds)),
    idleRssMiB: mib(idle),
    peakRssMiB: mib(peak),
    growthMiB: mib(peak - idle),
  };
}

interface Stream {
  bytes: number;
  seconds: number;
}

/** Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0); without it, sampling alone counts. */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted here: the sampled VmRSS is the figure.
  }
}

/**
 * Reads a response to the end as fast as it comes, keeping nothing; answers its length in bytes and how
 * many items it held (occurrences of the format's `itemStart`).
 */
function download(url: string, format: StreamedFormat): Promise<{ bytes: number; items: number }> {
  const ITEM_START = Buffer.from(format.itemStart);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: format.accept } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET ${url} answered ${response.statusCode}`));
        response.resume();
        return;
      }
      let bytes = 0;
      let items = 0;
      // The last bytes of the previous chunk: a marker may begin there and end in this one.
      let carry: Buffer = Buffer.alloc(0);
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Chunks are counted where they lie (copying each one measured the client, not the server).
        const seam = Buffer.concat([carry, chunk.subarray(0, ITEM_START.length - 1)]);
        for (let at = seam.indexOf(ITEM_START); at !== -1 && at < carry.length; at = seam.indexOf(ITEM_START, at + 1)) {
          items++;
        }
        for (let at = chunk.indexOf(ITEM_START); at !== -1; at = chunk.indexOf(ITEM_START, at + 1)) items++;
        carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (ITEM_START.length - 1))));
      });
      response.once('end', () => resolve({ bytes, items }));
      response.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}
