/**
 * @module Load from wrk, the HTTP load generator (Debian package `wrk`). Contenders in one scenario are
 * run in turns (a, b, a, b…) so that a change in the machine's load during the run touches each alike,
 * and each is reported by its median run.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { median } from './stats.js';

export const WRK = '/usr/bin/wrk';
const REQUEST_TIMEOUT_SECONDS = 10;
const pathsScript = new URL('./wrk-paths.lua', import.meta.url).pathname;

export function wrkMissing(): string | undefined {
  if (existsSync(WRK)) return undefined;
  return `wrk is not installed at ${WRK}. Install it with:\n  sudo apt-get install wrk\nthen run the benchmark again.`;
}

export interface WrkLoad {
  /** Server base URL. */
  url: string;
  /** Path, where `{id}` becomes a random whole number from `ids[0]` to `ids[1]` on each request. */
  path: string;
  ids?: [number, number];
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  threads: number;
  /** `false` for a warm-up, where a cold server's slow or failed answers are expected. */
  check?: boolean;
  /** Another wrk script than the one of GETs by path, and its arguments (`path` and `ids` are then unused). */
  script?: { file: string; args: string[] };
}

export interface WrkRun {
  requestsPerSecond: number;
  requests: number;
  /** Responses other than 2xx/3xx, and socket errors and timeouts. */
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number };
}

interface WrkJson {
  requests: number;
  duration_us: number;
  errors: Record<'connect' | 'read' | 'write' | 'status' | 'timeout', number>;
  latency_us: { p50: number; p90: number; p99: number };
}

export async function runWrk(load: WrkLoad): Promise<WrkRun> {
  const args = [
    `-t${load.threads}`,
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    '--latency',
    // wrk's default of 2 s counts a queued request as failed; a slow answer should count as slow.
    '--timeout',
    `${REQUEST_TIMEOUT_SECONDS}s`,
    '-s',
    load.script?.file ?? pathsScript,
    ...Object.entries(load.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    load.url,
    '--',
    ...(load.script?.args ?? [load.path, String(load.ids?.[0] ?? 1), String(load.ids?.[1] ?? 1)]),
  ];
  const text = await new Promise<string>((resolve, reject) => {
    const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk failed (${code}):\n${out}`))));
  });
  const line = text.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no summary:\n${text}`);
  const json = JSON.parse(line.slice('WRK_JSON '.length)) as WrkJson;
  const errors = Object.values(json.errors).reduce((sum, n) => sum + n, 0);
  const run: WrkRun = {
    requestsPerSecond: json.requests / (json.duration_us / 1e6),
    requests: json.requests,
    errors,
    latencyMs: { p50: json.latency_us.p50 / 1000, p90: json.latency_us.p90 / 1000, p99: json.latency_us.p99 / 1000 },
  };
  // Error answers are cheap: a measured run where many requests failed measures the wrong thing.
  if (load.check !== false && errors > json.requests * 0.01) {
    throw new Error(
      `${load.url}${load.path}: ${errors} of ${json.requests} requests failed (${JSON.stringify(json.errors)})`,
    );
  }
  return run;
}

/** One contender of a scenario: a name and the load that measures it. */
export interface Contender {
  name: string;
  load: WrkLoad;
  /** Makes it fresh before each of its runs (a new process), which is then warmed up again. */
  fresh?: () => Promise<void>;
  /** Sets the stage before each of its runs and warm-ups (a setting of the database), with no new warm-up. */
  before?: () => Promise<void>;
}

export interface ContenderResult {
  name: string;
  /** Requests per second of each run, in run order. */
  runs: number[];
  median: number;
  p50LatencyMs: number;
}

/**
 * Seconds of unmeasured load per contender before the rounds, however short the runs: V8 needs a while to
 * optimise the hot code, PGlite's WebAssembly longer, and a database's cache fills from random ids.
 */
const WARM_UP_SECONDS = 4;

/**
 * Warms every contender up, runs each once per round in turns, and answers each one's median. A contender
 * that is made fresh before each run is warmed up again after it.
 */
export async function interleave(
  contenders: Contender[],
  rounds: number,
  onRun: (name: string, run: WrkRun) => void,
): Promise<ContenderResult[]> {
  for (const { load, before } of contenders) {
    await before?.();
    await runWrk({ ...load, seconds: WARM_UP_SECONDS, check: false });
  }
  const runs = new Map<string, WrkRun[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Who goes first alternates: a machine that slows down (or warms up) during a round favours neither.
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) {
      if (contender.fresh) {
        await contender.fresh();
        await runWrk({ ...contender.load, seconds: WARM_UP_SECONDS, check: false });
      }
      await contender.before?.();
      const run = await runWrk(contender.load);
      runs.get(contender.name)?.push(run);
      onRun(contender.name, run);
    }
  }
  return contenders.map(({ name }) => {
    const list = runs.get(name) ?? [];
    return {
      name,
      runs: list.map((r) => Math.round(r.requestsPerSecond)),
      median: Math.round(median(list.map((r) => r.requestsPerSecond))),
      p50LatencyMs: median(list.map((r) => r.latencyMs.p50)),
    };
  });
}
