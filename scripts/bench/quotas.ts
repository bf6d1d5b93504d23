/**
 * @module What the shared rate-limit count costs a search: one catalogue on PostgreSQL, served from this
 * process by two apps, one counting quotas in the database and one in the process, with limits raised so
 * that nothing is refused. wrk loads them in turns; the figure is the ratio of their medians. One bearer
 * token sends every request, so every count is an update of one row: the case where counts contend most.
 *
 *   node --import tsx scripts/bench/quotas.ts [--books 10000] [--seconds 10] [--rounds 3] [--connections 8]
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres); the script creates
 * and drops its own database `bench_quotas` there.
 */
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { createApp } from '../../src/app.js';
import { type Database, type Db, openDatabase } from '../../src/db/client.js';
import { COMMON_WORDS } from '../../src/db/generate.js';
import { prepareDatabase } from '../../src/db/migrate.js';
import { spendQuota } from '../../src/db/queries/rate-windows.js';
import { benchToken, postgresCatalogue } from './catalogues.js';
import { repoRoot, sleep } from './processes.js';
import { type ContenderResult, interleave, type WrkLoad, type WrkRun, wrkMissing } from './wrk.js';

const DATABASE = 'bench_quotas';
/** Requests that each spend from the search quota: a search, and the cheapest, a suggestion. */
export const QUOTA_SCENARIOS = [
  { name: 'a search for a word in 10% of titles', path: `/books?page=1&per_page=20&query=${COMMON_WORDS[0]}` },
  { name: 'a suggestion for a 4-letter prefix', path: `/suggestions?query=${COMMON_WORDS[0]?.slice(0, 4)}` },
];
/** Statements timed one after another, for the upsert's latency without HTTP around it. */
const ROUND_TRIPS = 2000;

/** One request kind, loaded against both ways of counting. */
export interface QuotaScenarioCost {
  name: string;
  path: string;
  process: ContenderResult;
  database: ContenderResult;
  /** Median requests per second counted in the database over counted in the process. */
  ratio: number;
}

export interface QuotaCostSettings {
  seconds: number;
  rounds: number;
  connections: number;
}

/**
 * Serves `database` from this process twice, counting quotas in the database and in the process, and loads
 * each scenario against both in interleaved rounds. `database` must know `benchToken` (a server started with
 * `catalogueEnv` made it, or `prepareDatabase`).
 */
export async function measureQuotaCost(
  database: Database,
  settings: QuotaCostSettings,
  onRun: (scenario: string, name: string, run: WrkRun) => void,
  scenarios: readonly { name: string; path: string }[] = QUOTA_SCENARIOS,
): Promise<QuotaScenarioCost[]> {
  const servers: ReturnType<typeof serve>[] = [];
  let inFlight = 0;
  try {
    // Raised far beyond what a run sends: every request is counted, none refused.
    const policy = { limit: 1_000_000_000, windowSeconds: 60 };
    const rateLimits = { search: policy, stream: policy, write: policy };
    const serveApp = (counting: 'database' | 'process') =>
      new Promise<string>((resolve) => {
        const app = createApp({ database, rateLimits, rateLimitCounting: counting });
        const fetch = async (request: Request, env: unknown) => {
          inFlight++;
          try {
            return await app.fetch(request, env);
          } finally {
            inFlight--;
          }
        };
        const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
          resolve(`http://127.0.0.1:${info.port}`),
        );
        servers.push(server);
      });
    const urls = { process: await serveApp('process'), database: await serveApp('database') };
    const costs: QuotaScenarioCost[] = [];
    for (const scenario of scenarios) {
      const load = (url: string): WrkLoad => ({
        url,
        path: scenario.path,
        headers: { Authorization: `Bearer ${benchToken}`, Accept: 'application/json' },
        seconds: settings.seconds,
        connections: settings.connections,
        threads: 1,
      });
      const contenders = [
        { name: 'counted in the process', load: load(urls.process) },
        { name: 'counted in the database', load: load(urls.database) },
      ];
      const results = await interleave(contenders, settings.rounds, (name, run) => onRun(scenario.name, name, run));
      const [local, shared] = results as [ContenderResult, ContenderResult];
      costs.push({ ...scenario, process: local, database: shared, ratio: shared.median / local.median });
    }
    return costs;
  } finally {
    // Requests wrk left behind at the end of its last run finish before the caller closes the database.
    await Promise.all(servers.map(stopServing));
    while (inFlight > 0) await sleep(50);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      books: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '8' },
    },
  });
  const missing = wrkMissing();
  if (missing) throw new Error(missing);
  const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const built = spawnSync(process.execPath, [`${repoRoot}scripts/build.js`, '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building dist/ failed');

  const catalogue = await postgresCatalogue(serverUrl, Number(values.books), false, DATABASE);
  let database: Database | undefined;
  try {
    database = await openDatabase({ kind: 'postgres', url: catalogue.env.DATABASE_URL });
    await prepareDatabase(database, { seedSample: false, adminToken: benchToken });

    const roundTrips = await timeRoundTrips(database.db);
    const costs = await measureQuotaCost(
      database,
      { seconds: Number(values.seconds), rounds: Number(values.rounds), connections: Number(values.connections) },
      (scenario, name, run) =>
        process.stdout.write(
          `${scenario}, ${name}: ${Math.round(run.requestsPerSecond)} requests/s, p50 ${run.latencyMs.p50} ms\n`,
        ),
    );
    const lines = [
      `${values.books} books, ${values.connections} connections, one token, median of ${values.rounds} runs of ${values.seconds} s:`,
    ];
    for (const cost of costs) {
      lines.push(
        `${cost.name} (${cost.path}):`,
        ...[cost.process, cost.database].map(
          (r) => `  ${r.name}: ${r.median} requests/s (runs ${r.runs.join(', ')}), p50 ${r.p50LatencyMs} ms`,
        ),
        `  throughput with the shared count: ${cost.ratio.toFixed(3)}× the in-process count's, ` +
          `${(1e6 / cost.database.median - 1e6 / cost.process.median).toFixed(0)} µs more per request`,
      );
    }
    lines.push(
      `round trips, ${ROUND_TRIPS} in a row: the upsert ${roundTrips.upsert.toFixed(0)} µs, select 1 ${roundTrips.select1.toFixed(0)} µs`,
    );
    process.stdout.write(`\n${lines.join('\n')}\n`);
  } finally {
    await database?.close();
    await catalogue.drop();
  }
}

function stopServing(server: ReturnType<typeof serve>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}

/**
 * Mean round trips, one after another, of the counting upsert (prepared, on a caller of its own) and, for
 * reference, of the smallest statement there is.
 */
async function timeRoundTrips(db: Db): Promise<{ upsert: number; select1: number }> {
  const params = { caller: 'bench:upserts', kind: 'search', windowSeconds: 60, requests: 1 };
  const mean = async (run: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await run();
    const started = performance.now();
    for (let i = 0; i < ROUND_TRIPS; i++) await run();
    return ((performance.now() - started) * 1000) / ROUND_TRIPS;
  };
  return { upsert: await mean(() => spendQuota(db, params)), select1: await mean(() => db.execute(sql`select 1`)) };
}

// Run as a script; imported (by the scaling scenario), it only lends its measurement.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
