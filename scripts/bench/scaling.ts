/**
 * @module The scaling scenario: a primary and one streaming standby on this machine (clusters of the
 * scenario's own, dropped at the end), catalogue servers with `DATABASE_REPLICA_URLS` at the standby, and four
 * figures: the share of anonymous reads' transactions the standby served, stale reads for a writer reading
 * through another process while the standby lags (and for an anonymous reader, who may see them), what the
 * shared quota count costs a search, and `GET /books/{id}` with two worker processes against one.
 *
 *   node --import tsx scripts/bench/scaling.ts [--books 10000] [--pairs 1000] [--reads 2000]
 *     [--seconds 3] [--rounds 3] [--connections 32] [--threads 2]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../src/db/client.js';
import { COMMON_WORDS } from '../../src/db/generate.js';
import { createReplicatedClusters, psql, type ReplicatedClusters } from '../../test/support/pg-cluster.js';
import { benchToken, catalogueEnv, databaseUrl, postgresCatalogue } from './catalogues.js';
import { catalogueEntry, repoRoot, type Server, sleep, startServer } from './processes.js';
import { measureQuotaCost, QUOTA_SCENARIOS } from './quotas.js';
import { type ContenderResult, interleave, type WrkLoad, wrkMissing } from './wrk.js';

/** Quotas high enough that the scenario's reads are never refused, still counted in the database. */
const COUNTED_NOT_REFUSED = 'search=100000,stream=100000,write=100000';

/** At least this share of anonymous reads' transactions on the standby. */
export const REPLICA_SHARE_TARGET = 0.9;
/** The shared quota count may cost a search at most 5% of its throughput. */
export const QUOTA_RATIO_TARGET = 0.95;

export interface ScalingSettings {
  books: number;
  /** Write-then-read pairs for read-your-writes. */
  pairs: number;
  /** Anonymous reads (books and searches, half each) whose transactions are counted. */
  reads: number;
  seconds: number;
  rounds: number;
  connections: number;
  threads: number;
  /** Where server logs go. */
  logDir: string;
}

/** Transactions committed in the catalogue's database on each cluster over a span. */
export interface Transactions {
  primary: number;
  standby: number;
}

export interface ScalingFigures {
  books: number;
  replicaReads: {
    reads: number;
    /** Counted over the reads' span, the servers' probes included. */
    counted: Transactions;
    /** What the probes alone committed over a span as long, with no reads. */
    idle: Transactions;
    /** Standby's share of `counted`, and of `counted - idle` (the reads' own). */
    share: number;
    shareWithoutProbes: number;
  };
  readYourWrites: {
    pairs: number;
    /** `recovery_min_apply_delay` on the standby during the pairs. */
    applyDelayMs: number;
    writerStale: number;
    anonymousStale: number;
  };
  quota: { path: string; process: ContenderResult; database: ContenderResult; ratio: number };
  workers: { one: ContenderResult; two: ContenderResult; ratio: number };
}

const DATABASE = 'bench_scaling';
/** Long enough that an anonymous read made at once after a write is served before the standby applies it. */
const APPLY_DELAY_MS = 500;
/** Backends report their statistics when idle, at most every ten seconds: counts are read after this wait. */
const STATISTICS_SETTLE_MS = 11_000;
/** Concurrent callers making the anonymous reads. */
const READERS = 8;

export async function measureScaling(settings: ScalingSettings, log: (line: string) => void): Promise<ScalingFigures> {
  log('creating a primary and a streaming standby');
  const clusters = await createReplicatedClusters();
  let dropped = false;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    clusters.drop();
  };
  // Before any other handler, which may exit: the clusters are this scenario's to remove.
  process.prependListener('SIGINT', drop);
  const servers: Server[] = [];
  try {
    log(`generating ${settings.books.toLocaleString('en')} books on the primary`);
    // Kept: the clusters themselves are dropped at the end.
    const catalogue = await postgresCatalogue(clusters.primary.url, settings.books, true, DATABASE);
    const primaryUrl = catalogue.env.DATABASE_URL;
    const standbyUrl = databaseUrl(clusters.standby.url, DATABASE);
    await standbyCaughtUp(clusters);
    const env = { ...catalogueEnv, DATABASE_URL: primaryUrl, DATABASE_REPLICA_URLS: standbyUrl };
    const start = async (name: string, extra: Record<string, string> = {}) => {
      const server = await startServer({
        name,
        args: catalogueEntry('server'),
        env: { ...env, ...extra },
        readyPath: '/health',
        logDir: settings.logDir,
        timeoutMs: 300_000,
      });
      servers.push(server);
      await replicaStreaming(server);
      return server;
    };
    const stopAll = async () => {
      while (servers.length) await servers.pop()?.stop();
    };
    const ids: [number, number] = [catalogue.firstBookId, catalogue.lastBookId];

    // Quotas counted as a deployment counts them (in the primary, shared), but too high to refuse a read:
    // each search's count is a write on the primary, which the standby's share must include.
    const a = await start('scaling-a', { CATALOGUE_RATE_LIMITS: COUNTED_NOT_REFUSED });
    const b = await start('scaling-b');
    log(`${settings.reads} anonymous book reads and searches, transactions counted on each cluster`);
    const replicaReads = await countReplicaReads(clusters, a, ids, settings.reads);
    log(
      `  standby ${replicaReads.counted.standby}, primary ${replicaReads.counted.primary} transactions ` +
        `(idle: ${replicaReads.idle.standby}, ${replicaReads.idle.primary}); standby's share ` +
        `${pct(replicaReads.share)}, ${pct(replicaReads.shareWithoutProbes)} without the probes'`,
    );

    log(
      `${settings.pairs} writes on one server, each read at once on another, the standby ${APPLY_DELAY_MS} ms behind`,
    );
    const readYourWrites = await checkReadYourWrites(clusters, a, b, ids, settings.pairs);
    log(
      `  stale for the writer: ${readYourWrites.writerStale}; for an anonymous reader: ${readYourWrites.anonymousStale}`,
    );
    await stopAll();

    log('the shared quota count against one in the process, on a search');
    const database = await openDatabase({ kind: 'postgres', url: primaryUrl });
    let costs: Awaited<ReturnType<typeof measureQuotaCost>>;
    try {
      costs = await measureQuotaCost(
        database,
        { seconds: settings.seconds, rounds: settings.rounds, connections: settings.connections },
        (scenario, name, run) => log(`  ${scenario}, ${name}: ${Math.round(run.requestsPerSecond)} req/s`),
        // The target speaks of a search; the suggestion's figure is quotas.ts's to give.
        QUOTA_SCENARIOS.slice(0, 1),
      );
    } finally {
      await database.close();
    }
    const search = costs[0] as (typeof costs)[number];
    const quota = {
      path: search.path,
      process: search.process,
      database: search.database,
      ratio: round3(search.ratio),
    };
    log(`  → ${quota.ratio}× (target ≥ ${QUOTA_RATIO_TARGET})`);

    log('GET /books/{id} with CATALOGUE_WORKERS=2 against 1');
    const one = await start('workers-1', { CATALOGUE_WORKERS: '1' });
    const two = await start('workers-2', { CATALOGUE_WORKERS: '2' });
    const load = (server: Server): WrkLoad => ({
      url: server.url,
      path: '/books/{id}',
      ids,
      headers: { Accept: 'application/json' },
      seconds: settings.seconds,
      connections: settings.connections,
      threads: settings.threads,
    });
    const [oneResult, twoResult] = (await interleave(
      [
        { name: 'one worker', load: load(one) },
        { name: 'two workers', load: load(two) },
      ],
      settings.rounds,
      (name, run) => log(`  ${name.padEnd(12)} ${Math.round(run.requestsPerSecond)} req/s`),
    )) as [ContenderResult, ContenderResult];
    const workers = { one: oneResult, two: twoResult, ratio: round3(twoResult.median / oneResult.median) };
    log(`  → two workers / one = ${workers.ratio}`);
    await stopAll();

    return { books: ids[1] - ids[0] + 1, replicaReads, readYourWrites, quota, workers };
  } finally {
    while (servers.length) await servers.pop()?.stop();
    drop();
    process.removeListener('SIGINT', drop);
  }
}

/**
 * Anonymous reads through `server` (book pages and searches, half each), with the transactions each cluster
 * committed meanwhile; then a span as long with no reads, which counts what the servers' probes commit alone.
 */
async function countReplicaReads(
  clusters: ReplicatedClusters,
  server: Server,
  ids: [number, number],
  reads: number,
): Promise<ScalingFigures['replicaReads']> {
  const words = COMMON_WORDS.slice(0, 5);
  let next = 0;
  const reader = async () => {
    while (next < reads) {
      const i = next++;
      const path =
        i % 2 === 0
          ? `/books/${randomId(ids)}`
          : `/books?page=1&per_page=20&query=${words[Math.floor(i / 2) % words.length]}`;
      const response = await fetch(server.url + path, { headers: { Accept: 'application/json' } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    }
  };
  const started = performance.now();
  const before = commits(clusters);
  await Promise.all(Array.from({ length: READERS }, reader));
  await sleep(STATISTICS_SETTLE_MS);
  const after = commits(clusters);
  const spanMs = performance.now() - started;
  await sleep(spanMs);
  const idleEnd = commits(clusters);
  const counted = { primary: after.primary - before.primary, standby: after.standby - before.standby };
  const idle = { primary: idleEnd.primary - after.primary, standby: idleEnd.standby - after.standby };
  const own = { primary: Math.max(0, counted.primary - idle.primary), standby: counted.standby - idle.standby };
  return {
    reads,
    counted,
    idle,
    share: round3(counted.standby / (counted.standby + counted.primary)),
    shareWithoutProbes: round3(own.standby / (own.standby + own.primary)),
  };
}

/**
 * `pairs` title changes by a librarian on `writer`, each followed at once by two reads of the book on
 * `reader`: the librarian's, which must show it, and an anonymous caller's, which may not. The standby applies
 * commits `APPLY_DELAY_MS` late meanwhile, well within the lag allowed, so it keeps answering reads.
 */
async function checkReadYourWrites(
  clusters: ReplicatedClusters,
  writer: Server,
  reader: Server,
  ids: [number, number],
  pairs: number,
): Promise<ScalingFigures['readYourWrites']> {
  const delay = (ms: number) => {
    psql(clusters.standby.url, `alter system set recovery_min_apply_delay = '${ms}ms'`);
    psql(clusters.standby.url, 'select pg_reload_conf()');
  };
  const librarian = { Accept: 'application/json', Authorization: `Bearer ${benchToken}` };
  const titleOf = async (id: number, headers: Record<string, string>) => {
    const response = await fetch(`${reader.url}/books/${id}`, { headers });
    const body = (await response.json()) as { title?: unknown };
    if (response.status !== 200) throw new Error(`GET /books/${id} answered ${response.status}`);
    return body.title;
  };
  delay(APPLY_DELAY_MS);
  let writerStale = 0;
  let anonymousStale = 0;
  try {
    for (let i = 0; i < pairs; i++) {
      const id = ids[0] + (i % (ids[1] - ids[0] + 1));
      const title = `Read after write ${i} ${Date.now()}`;
      const response = await fetch(`${writer.url}/books/${id}`, {
        method: 'PATCH',
        headers: { ...librarian, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`PATCH /books/${id} answered ${response.status}`);
      const [mine, theirs] = await Promise.all([titleOf(id, librarian), titleOf(id, { Accept: 'application/json' })]);
      if (mine !== title) writerStale++;
      if (theirs !== title) anonymousStale++;
    }
  } finally {
    delay(0);
  }
  return { pairs, applyDelayMs: APPLY_DELAY_MS, writerStale, anonymousStale };
}

/** Waits until the standby has replayed all the primary had written (the generated catalogue). */
async function standbyCaughtUp(clusters: ReplicatedClusters): Promise<void> {
  const target = psql(clusters.primary.url, 'select pg_current_wal_lsn()');
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const behind = psql(clusters.standby.url, `select pg_last_wal_replay_lsn() < '${target}'::pg_lsn`);
    if (behind === 'f') return;
    await sleep(200);
  }
  throw new Error('the standby did not catch up with the primary within 5 minutes');
}

/** Waits until the server's /health says its standby answers reads. */
async function replicaStreaming(server: Server): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const body = (await (await fetch(`${server.url}/health`)).json()) as {
      databases?: { role: string; state: string }[];
    };
    if (body.databases?.some((d) => d.role === 'replica' && d.state === 'streaming')) return;
    await sleep(200);
  }
  throw new Error(`${server.name}: its standby was not streaming after 30 s`);
}

/** Transactions committed so far in the catalogue's database on each cluster, read from another database. */
function commits(clusters: ReplicatedClusters): Transactions {
  const query = `select xact_commit from pg_stat_database where datname = '${DATABASE}'`;
  return { primary: Number(psql(clusters.primary.url, query)), standby: Number(psql(clusters.standby.url, query)) };
}

const randomId = ([first, last]: [number, number]) => first + Math.floor(Math.random() * (last - first + 1));
const round3 = (n: number) => Math.round(n * 1000) / 1000;
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      books: { type: 'string', default: '10000' },
      pairs: { type: 'string', default: '1000' },
      reads: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      threads: { type: 'string', default: '2' },
    },
  });
  const missing = wrkMissing();
  if (missing) throw new Error(missing);
  const built = spawnSync(process.execPath, [`${repoRoot}scripts/build.js`, '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building dist/ failed');
  const logDir = mkdtempSync('/tmp/catalogue-scaling-');
  process.on('SIGINT', () => process.exit(130));
  try {
    const figures = await measureScaling(
      {
        books: Number(values.books),
        pairs: Number(values.pairs),
        reads: Number(values.reads),
        seconds: Number(values.seconds),
        rounds: Number(values.rounds),
        connections: Number(values.connections),
        threads: Number(values.threads),
        logDir,
      },
      (line) => process.stdout.write(`${line}\n`),
    );
    process.stdout.write(`\n${JSON.stringify(figures, null, 2)}\n`);
    rmSync(logDir, { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(`server logs kept in ${logDir}\n`);
    throw error;
  }
}

// Run as a script; imported (by `npm run bench`), it only lends `measureScaling`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
