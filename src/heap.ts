/**
 * @module How the server's JavaScript heap is tuned for serving requests, set once at start-up. An
 * operator's own setting of either flag (`node --flag` or `NODE_OPTIONS`) wins.
 *
 * - How far the heap may grow between full collections. On a machine with gigabytes of memory V8 lets the
 *   old generation reach four times what is live before collecting it. Streaming a million books promotes
 *   a few hundred MB of short-lived rows over the stream (postgres.js keeps a batch's rows until its query
 *   completes), so the heap went up to that ceiling: resident memory rose ~100 MiB over idle. Growing at
 *   most twice what is live keeps it near 50 MiB for the same CPU (measured: 3.7 s against 3.5–4.0 s of
 *   server CPU per million books).
 * - No allocation-site pretenuring. V8 watches how many objects made at one place in the code survive a
 *   young collection, and past a threshold makes that place allocate straight in the old generation. A
 *   server has 32 requests in flight when a young collection comes, so some per-request places crossed
 *   it; their objects, then made old, kept every young object they point to (the request, its response,
 *   its rows) alive through the next young collection, until a full one. Under load, 2 MB was promoted at
 *   every young collection (one every 25 ms) where bare Hono promoted nothing: collections took 3 ms
 *   instead of 0.1 ms, about a sixth of the server's CPU, and the root document answered 43,000 req/s
 *   instead of 59,000 (`--trace-gc-nvp` under wrk).
 */
import { setFlagsFromString } from 'node:v8';

const GROWING = '--heap-growing-percent';
const PRETENURING = 'allocation-site-pretenuring';

export function tuneHeap(growingPercent = 100): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((arg) =>
    arg.replaceAll('_', '-'),
  );
  if (!given.some((arg) => arg.startsWith(GROWING))) setFlagsFromString(`${GROWING}=${growingPercent}`);
  if (!given.some((arg) => arg === `--${PRETENURING}` || arg === `--no-${PRETENURING}`)) {
    setFlagsFromString(`--no-${PRETENURING}`);
  }
}
