/**
 * @module How far the server's JavaScript heap may grow between full collections. On a machine with
 * gigabytes of memory V8 lets the old generation reach four times what is live before collecting it.
 * Streaming a million books promotes a few hundred MB of short-lived rows over the stream (postgres.js
 * keeps a batch's rows until its query completes), so the heap went up to that ceiling: resident memory
 * rose ~100 MiB over idle. Growing at most twice what is live keeps it near 50 MiB for the same CPU
 * (measured: 3.7 s against 3.5–4.0 s of server CPU per million books). An operator's own setting wins.
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';

export function boundHeapGrowth(percent = 100): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => arg.replaceAll('_', '-').startsWith(FLAG))) return;
  setFlagsFromString(`${FLAG}=${percent}`);
}
