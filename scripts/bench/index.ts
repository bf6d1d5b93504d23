/**
 * @module `npm run bench`: generates catalogues, starts the catalogue and the baseline on them, measures
 * listings at every size, throughput and the stream at the largest, change streams catching up on a small
 * one, and writes docs/performance.md (`--only` measures one scenario alone and prints its figures).
 * Never part of `npm test`. See docs/performance.md for the method; `npm run bench -- --help` for options.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  benchToken,
  type Catalogue,
  catalogueEnv,
  memberToken,
  pgliteCatalogue,
  postgresCatalogue,
  serverVersion,
} from './catalogues.js';
import { CHANGE_FEED_BOOKS, CHANGE_FEED_STREAMS, type ChangeFeedFigures, measureChangeFeed } from './change-feed.js';
import { DESK_PER_ROUND, type DeskFigures, measureDesk } from './desk.js';
import { type ImportFigures, measureImport } from './imports.js';
import { type LendingRulesFigures, measureLendingRules } from './lending-rules.js';
import { type LatencyFigures, measureListings } from './listings.js';
import { type LostLoansFigures, measureLostLoans } from './lost-loans.js';
import { measureNotices, NOTICES_PENDING, NOTICES_SENT, type NoticesFigures } from './notices.js';
import { measureOaiPages, type OaiFigures } from './oai-pmh.js';
import { type BenchOptions, OptionsError, parseOptions, type Scenario, usage } from './options.js';
import { startPlatformatic } from './peer-platformatic.js';
import { catalogueEntry, output, repoRoot, type Server, startRestartable, startServer } from './processes.js';
import { type PeerOutcome, type Results, writeReport } from './report.js';
import { measureScaling, type ScalingFigures } from './scaling.js';
import { measureSip2, SIP2_SECONDS, SIP2_TERMINALS, type Sip2Figures } from './sip2.js';
import { measureSru, SRU_PER_ROUND, type SruFigures } from './sru.js';
import { MARCXML_STREAM, measureStream, type StreamFigures } from './stream.js';
import { GATHERED_BASELINE, measureThroughput, type ThroughputResult } from './throughput.js';
import { measureWrites } from './writes.js';
import { WRK, wrkMissing } from './wrk.js';

const started = Date.now();
const log = (line: string) => {
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `[${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}] ${line}\n`,
  );
};

/** Records the import scenario sends: the issue's figure, whatever the catalogue's size. */
const IMPORT_RECORDS = 100_000;
/** Write-then-read pairs of the scaling scenario's read-your-writes check, and anonymous reads counted. */
const SCALING_PAIRS = 1000;
const SCALING_READS = 2000;

/** The servers and the CLI run from dist/ when it exists: measure the sources as they are, not a stale build. */
function build(): void {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building dist/ failed');
}

/**
 * Live change streams catching up, on a catalogue of its own (small: the streams read all of its feed),
 * dropped after unless kept.
 */
async function changeFeedScenario(options: BenchOptions, logDir: string): Promise<ChangeFeedFigures> {
  log(`generating ${CHANGE_FEED_BOOKS.toLocaleString('en')} books in bench_changes`);
  const catalogue = await postgresCatalogue(options.databaseUrl, CHANGE_FEED_BOOKS, options.keep, 'bench_changes');
  try {
    log(
      `change streams: ${CHANGE_FEED_STREAMS} catching up the whole feed at once, the page written as one text and with writeSSE per event, ${options.rounds} interleaved rounds`,
    );
    const figures = await measureChangeFeed(catalogue, { rounds: options.rounds, logDir }, (line) => log(`  ${line}`));
    log(
      `  ${figures.page.eventsPerSecond.toLocaleString('en')} events/s against ${figures.perEvent.eventsPerSecond.toLocaleString('en')} (×${figures.ratio.toFixed(2)}); ` +
        `${figures.page.cpuMicrosPerEvent} µs CPU per event against ${figures.perEvent.cpuMicrosPerEvent}`,
    );
    return figures;
  } finally {
    await catalogue.drop();
  }
}

/** Borrowing and returning with a matrix of rules against the default rule alone, on catalogues of its own. */
async function lendingRulesScenario(options: BenchOptions, logDir: string): Promise<LendingRulesFigures> {
  log(
    `lending rules: borrow and return with the default rule alone and with a matrix, ${options.rounds} interleaved rounds`,
  );
  const figures = await measureLendingRules(
    { serverUrl: options.databaseUrl, keep: options.keep, rounds: options.rounds, seconds: options.duration, logDir },
    (line) => log(`  ${line}`),
  );
  log(
    `  ${figures.matrix.pairsPerSecond.toLocaleString('en')} pairs/s with ${figures.rules.toLocaleString('en')} rules against ${figures.single.pairsPerSecond.toLocaleString('en')} with the default rule (×${figures.ratio.toFixed(2)}); ` +
      `${figures.matrix.cpuMicrosPerPair} µs CPU per pair against ${figures.single.cpuMicrosPerPair}`,
  );
  return figures;
}

/** The lost-items job over a million overdue loans, on a catalogue of its own. */
async function lostLoansScenario(options: BenchOptions): Promise<LostLoansFigures> {
  log('lost items: one run of the job over a million overdue loans');
  const figures = await measureLostLoans({ serverUrl: options.databaseUrl, keep: options.keep }, (line) =>
    log(`  ${line}`),
  );
  log(
    `  ${figures.loansPerSecond.toLocaleString('en')} loans/s (${figures.loans.toLocaleString('en')} in ${figures.seconds} s), RSS idle ${figures.idleRssMiB} MiB, +${figures.growthMiB} MiB`,
  );
  return figures;
}

/** Desk check-out by barcode against a plain borrow by id, in turns, on a catalogue of its own. */
async function deskScenario(options: BenchOptions, logDir: string): Promise<DeskFigures> {
  log(
    `circulation desk: check-out by barcode and borrow by id in turns, ${options.rounds} rounds of ${DESK_PER_ROUND} each`,
  );
  const figures = await measureDesk(
    { serverUrl: options.databaseUrl, keep: options.keep, rounds: options.rounds, logDir },
    (line) => log(`  ${line}`),
  );
  log(
    `  check-out p50 ${figures.checkout.p50Ms} ms against borrow p50 ${figures.borrow.p50Ms} ms (×${figures.ratio.toFixed(2)})`,
  );
  return figures;
}

/**
 * SRU's searchRetrieve against the JSON search for the same words, in turns: on `catalogue` (the full run's
 * largest, as generated), or alone on a catalogue of its own.
 */
async function sruScenario(options: BenchOptions, logDir: string, catalogue?: Catalogue): Promise<SruFigures> {
  const books = catalogue?.books ?? (options.sizes[options.sizes.length - 1] as number);
  log(
    `SRU: searchRetrieve of 10 MARCXML records and the JSON search for the same words in turns at ${books.toLocaleString('en')} books, ${options.rounds} rounds of ${SRU_PER_ROUND} each`,
  );
  const figures = await measureSru(
    { serverUrl: options.databaseUrl, books, keep: options.keep, rounds: options.rounds, logDir, catalogue },
    (line) => log(`  ${line}`),
  );
  log(
    `  searchRetrieve p50 ${figures.searchRetrieve.p50Ms} ms against the JSON search p50 ${figures.json.p50Ms} ms (×${figures.ratio.toFixed(2)})`,
  );
  return figures;
}

/** SIP2 checkouts from 32 terminals against HTTP borrows from 32 clients, in turns, on a catalogue of its own. */
async function sip2Scenario(options: BenchOptions, logDir: string): Promise<Sip2Figures> {
  log(
    `SIP2: checkouts from ${SIP2_TERMINALS} terminals and HTTP borrows from as many clients in turns, ${options.rounds} rounds of ${SIP2_SECONDS} s each`,
  );
  const figures = await measureSip2(
    { serverUrl: options.databaseUrl, keep: options.keep, rounds: options.rounds, logDir },
    (line) => log(`  ${line}`),
  );
  log(
    `  SIP2 ${figures.sip2PerSecond} checkouts/s against HTTP ${figures.httpPerSecond} borrows/s (×${figures.ratio.toFixed(2)})`,
  );
  return figures;
}

/** The notices sender with a large outbox, to an SMTP server in this process, on a catalogue of its own. */
async function noticesScenario(options: BenchOptions): Promise<NoticesFigures> {
  log(
    `notices: sending ${NOTICES_SENT.toLocaleString('en')} of ${NOTICES_PENDING.toLocaleString('en')} pending to a local SMTP server`,
  );
  const figures = await measureNotices({ serverUrl: options.databaseUrl, keep: options.keep }, (line) =>
    log(`  ${line}`),
  );
  log(
    `  ${figures.emailsPerSecond.toLocaleString('en')} emails/s (${figures.sent.toLocaleString('en')} in ${figures.seconds} s), RSS idle ${figures.idleRssMiB} MiB, +${figures.growthMiB} MiB`,
  );
  return figures;
}

/**
 * One book read anonymously, with a librarian's token and with a member's, against the baseline in
 * interleaved rounds, on a catalogue generated for them: the ratios of the full run's first three rows, at
 * the size the full run measures them (the largest of `--sizes`): a smaller catalogue fits in PostgreSQL's
 * shared buffers and hides what a large one costs.
 */
async function bookReadsScenario(options: BenchOptions, logDir: string): Promise<ThroughputResult[]> {
  const missing = wrkMissing();
  if (missing) throw new OptionsError(missing);
  const BOOK_READS_BOOKS = options.sizes[options.sizes.length - 1] as number;
  log(`generating ${BOOK_READS_BOOKS.toLocaleString('en')} books in bench_book_reads`);
  const catalogue = await postgresCatalogue(options.databaseUrl, BOOK_READS_BOOKS, options.keep, 'bench_book_reads');
  const servers: Server[] = [];
  try {
    const server = await startServer({
      name: 'catalogue',
      args: catalogueEntry('server'),
      env: { ...catalogueEnv, ...catalogue.env },
      readyPath: '/health',
      logDir,
      timeoutMs: 300_000,
    });
    servers.push(server);
    const rootFile = join(logDir, 'root.json');
    writeFileSync(rootFile, await (await fetch(`${server.url}/`, { headers: { accept: 'application/json' } })).text());
    const baseline = await startRestartable({
      name: 'baseline',
      args: ['--import', 'tsx', join(repoRoot, 'scripts/bench/baseline-server.ts')],
      env: { ...catalogue.env, BASELINE_ROOT_FILE: rootFile },
      readyPath: '/',
      logDir,
    });
    servers.push(baseline);
    log(`requests per second at ${BOOK_READS_BOOKS.toLocaleString('en')} books`);
    const results = await measureThroughput(
      { baseline, catalogue: server },
      {
        seconds: options.duration,
        connections: options.connections,
        threads: options.threads,
        rounds: options.rounds,
        ids: [catalogue.firstBookId, catalogue.lastBookId],
        tokens: { librarian: benchToken, member: await memberToken(catalogue) },
        only: ['book-json', 'book-bearer', 'book-member'],
      },
      log,
    );
    for (const result of results) log(`${result.key.padEnd(12)} ×${result.ratio} (target ≥ ${result.target})`);
    return results;
  } finally {
    while (servers.length) await servers.pop()?.stop();
    await catalogue.drop();
  }
}

/**
 * The listing scenarios alone, at every size of `--sizes` in turns (`--sizes 10000,10000000` for a national
 * library's size): each catalogue generated and served as the full run does, then dropped.
 */
async function listingsScenario(options: BenchOptions, scratch: string) {
  const catalogues: Catalogue[] = [];
  const servers: Server[] = [];
  try {
    for (const size of options.sizes) {
      log(`generating ${size.toLocaleString('en')} books in bench_${size}`);
      const started = Date.now();
      catalogues.push(await postgresCatalogue(options.databaseUrl, size, options.keep));
      log(`  generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const catalogue of catalogues) {
      servers.push(
        await startServer({
          name: 'catalogue',
          args: catalogueEntry('server'),
          env: { ...catalogueEnv, ...catalogue.env },
          readyPath: '/health',
          logDir: scratch,
          timeoutMs: 300_000,
        }),
      );
    }
    return await measureListings(
      catalogues.map((catalogue, i) => ({
        size: options.sizes[i] as number,
        baseUrl: (servers[i] as Server).url,
        catalogue,
      })),
      options.samples,
      (size, scenario, f) =>
        log(
          `  ${size.toLocaleString('en').padStart(10)} ${scenario.short.padEnd(26)} ${
            f.error
              ? `FAILED: ${f.error}`
              : `p50 ${f.medianMs.toFixed(1).padStart(7)} ms   p90 ${f.p90Ms.toFixed(1).padStart(7)} ms`
          }`,
        ),
    );
  } finally {
    while (servers.length) await servers.pop()?.stop();
    while (catalogues.length) await catalogues.shift()?.drop();
  }
}

/** How each scenario runs alone, with the scratch folder for its logs. */
const aloneRunners: Record<Scenario, (options: BenchOptions, scratch: string) => Promise<unknown>> = {
  'change-feed': changeFeedScenario,
  'lending-rules': lendingRulesScenario,
  'lost-loans': lostLoansScenario,
  'book-reads': bookReadsScenario,
  desk: deskScenario,
  notices: noticesScenario,
  listings: listingsScenario,
  sru: sruScenario,
  sip2: sip2Scenario,
};

/** One scenario alone: its figures printed, no report written (a page holds the figures of one whole run). */
async function runAlone(options: BenchOptions): Promise<void> {
  build();
  const scratch = mkdtempSync('/tmp/catalogue-bench-');
  try {
    const only = options.only as Scenario;
    const figures = await aloneRunners[only](options, scratch);
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    if (!options.keep) rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(options: BenchOptions): Promise<void> {
  const missing = wrkMissing();
  if (missing) throw new OptionsError(missing);
  build();
  const scratch = mkdtempSync('/tmp/catalogue-bench-');
  const largest = options.sizes[options.sizes.length - 1] as number;
  const listings: Record<string, Record<string, LatencyFigures>> = {};
  let throughput: ThroughputResult[] = [];
  let stream: StreamFigures | undefined;
  let streamError: string | undefined;
  let marcXmlStream: StreamFigures | undefined;
  let marcXmlStreamError: string | undefined;
  let oai: OaiFigures | undefined;
  let imports: ImportFigures | undefined;
  let importsError: string | undefined;
  let peer: PeerOutcome | undefined;
  let scaling: ScalingFigures | undefined;
  let scalingError: string | undefined;
  let changeFeed: ChangeFeedFigures | undefined;
  let changeFeedError: string | undefined;
  let lendingRules: LendingRulesFigures | undefined;
  let lendingRulesError: string | undefined;
  let lostLoans: LostLoansFigures | undefined;
  let lostLoansError: string | undefined;
  let desk: DeskFigures | undefined;
  let deskError: string | undefined;
  let sru: SruFigures | undefined;
  let sruError: string | undefined;
  let notices: NoticesFigures | undefined;
  let noticesError: string | undefined;
  let sip2: Sip2Figures | undefined;
  let sip2Error: string | undefined;
  log(`sizes ${options.sizes.join(', ')}; scratch ${scratch}; PostgreSQL ${redact(options.databaseUrl)}`);
  const machine = await describeMachine(options.databaseUrl);
  const [load] = loadavg();
  if ((load ?? 0) > 0.5) log(`warning: the machine is busy (load average ${load?.toFixed(2)}); figures will be noisy`);

  const startCatalogue = (catalogue: Catalogue, name = 'catalogue') =>
    startServer({
      name,
      args: catalogueEntry('server'),
      env: { ...catalogueEnv, ...catalogue.env },
      readyPath: '/health',
      logDir: scratch,
      timeoutMs: 300_000,
    });

  try {
    // Every size is generated and served first: the listings are measured at all of them in turns.
    const catalogues: Catalogue[] = [];
    const listingServers: Server[] = [];
    let measured = false;
    try {
      for (const size of options.sizes) {
        log(`generating ${size.toLocaleString('en')} books in bench_${size}`);
        catalogues.push(await postgresCatalogue(options.databaseUrl, size, options.keep));
      }
      for (const catalogue of catalogues) listingServers.push(await startCatalogue(catalogue));
      log(
        `listings at ${options.sizes.map((size) => size.toLocaleString('en')).join(' and ')} books, in turns (${options.samples} requests per scenario and size)`,
      );
      Object.assign(
        listings,
        await measureListings(
          catalogues.map((catalogue, i) => ({
            size: options.sizes[i] as number,
            baseUrl: (listingServers[i] as Server).url,
            catalogue,
          })),
          options.samples,
          (size, scenario, f) =>
            log(
              `  ${size.toLocaleString('en').padStart(9)} ${scenario.short.padEnd(26)} ${
                f.error
                  ? `FAILED: ${f.error}`
                  : `p50 ${f.medianMs.toFixed(1).padStart(7)} ms   p90 ${f.p90Ms.toFixed(1).padStart(7)} ms`
              }`,
            ),
        ),
      );
      measured = true;
    } finally {
      while (listingServers.length) await listingServers.pop()?.stop();
      // The smaller catalogues have served their purpose; the largest serves the rest (unless this failed).
      while (catalogues.length > (measured ? 1 : 0)) await catalogues.shift()?.drop();
    }
    const catalogue = catalogues[0] as Catalogue;
    const size = largest;
    const servers: Server[] = [];
    try {
      const server = await startCatalogue(catalogue);
      servers.push(server);

      log(`OAI-PMH ListRecords at ${size.toLocaleString('en')} books: the first page, and pages half way through`);
      try {
        oai = await measureOaiPages(server.url, catalogue.books, options.samples);
        log(
          `  first p50 ${oai.first.medianMs.toFixed(1)} ms, after ${oai.depth.toLocaleString('en')} records p50 ${oai.deep.medianMs.toFixed(1)} ms (×${oai.ratio.toFixed(2)})`,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        oai = { ...noFigures, deep: noFigures.first, depth: 0, ratio: Number.NaN, error: message };
        log(`  FAILED: ${message}`);
      }

      const rootFile = join(scratch, 'root.json');
      writeFileSync(
        rootFile,
        await (await fetch(`${server.url}/`, { headers: { accept: 'application/json' } })).text(),
      );
      const baseline = await startRestartable({
        name: 'baseline',
        args: ['--import', 'tsx', join(repoRoot, 'scripts/bench/baseline-server.ts')],
        env: { ...catalogue.env, BASELINE_ROOT_FILE: rootFile },
        readyPath: '/',
        logDir: scratch,
      });
      servers.push(baseline);
      const gatheredBaseline = await startServer({
        name: GATHERED_BASELINE,
        args: ['--import', 'tsx', join(repoRoot, 'scripts/bench/baseline-server.ts')],
        env: { ...catalogue.env, BASELINE_ROOT_FILE: rootFile, BASELINE_GATHER: '1' },
        readyPath: '/',
        logDir: scratch,
      });
      servers.push(gatheredBaseline);

      log(`generating ${size.toLocaleString('en')} books in a PGlite directory`);
      const embedded = await pgliteCatalogue(scratch, size, options.keep);
      const pglite = await startCatalogue(embedded, 'pglite');
      servers.push(pglite);

      let peerServer: Server | undefined;
      if (options.peer === 'platformatic') {
        log('starting the peer, Platformatic DB (installed under /tmp on first use)');
        const launched = await startPlatformatic(catalogue.env.DATABASE_URL as string, scratch, log);
        peer = launched.outcome;
        if (launched.server) servers.push(launched.server);
        peerServer = launched.server;
        if (!peerServer) log(`  peer skipped: ${peer.reason}`);
      }

      log(`requests per second at ${size.toLocaleString('en')} books`);
      throughput = await measureThroughput(
        { baseline, catalogue: server, pglite, gatheredBaseline, ...(peerServer && { peer: peerServer }) },
        {
          seconds: options.duration,
          connections: options.connections,
          threads: options.threads,
          rounds: options.rounds,
          ids: [catalogue.firstBookId, catalogue.lastBookId],
          tokens: { librarian: benchToken, member: await memberToken(catalogue) },
        },
        log,
      );
      while (servers.length) await servers.pop()?.stop();
      await embedded.drop();

      log(`streaming GET /books of ${size.toLocaleString('en')} books from a fresh server`);
      const fresh = await startCatalogue(catalogue);
      servers.push(fresh);
      try {
        stream = await measureStream(fresh, catalogue.books);
        log(
          `  ${stream.booksPerSecond.toLocaleString('en')} books/s, RSS idle ${stream.idleRssMiB} MiB, +${stream.growthMiB} MiB`,
        );
      } catch (error) {
        streamError = error instanceof Error ? error.message : String(error);
        log(`  FAILED: ${streamError}`);
      }

      log(`streaming GET /books of ${size.toLocaleString('en')} books as MARCXML from a fresh server`);
      const freshForMarc = await startCatalogue(catalogue);
      servers.push(freshForMarc);
      try {
        marcXmlStream = await measureStream(freshForMarc, catalogue.books, MARCXML_STREAM);
        log(
          `  ${marcXmlStream.booksPerSecond.toLocaleString('en')} records/s, RSS idle ${marcXmlStream.idleRssMiB} MiB, +${marcXmlStream.growthMiB} MiB`,
        );
      } catch (error) {
        marcXmlStreamError = error instanceof Error ? error.message : String(error);
        log(`  FAILED: ${marcXmlStreamError}`);
      }
      await servers.pop()?.stop();

      // Before anything writes to it, the catalogue serves SRU's scenario as the one it would generate.
      try {
        sru = await sruScenario(options, scratch, catalogue);
      } catch (error) {
        sruError = error instanceof Error ? error.message : String(error);
        log(`  FAILED: ${sruError}`);
      }

      // Last on this catalogue: it writes books (and deletes them after).
      log(`creating books at ${size.toLocaleString('en')} books, with the dictionary kept and without`);
      const writes = await measureWrites(
        fresh,
        catalogue,
        {
          seconds: options.duration,
          connections: options.connections,
          threads: options.threads,
          rounds: options.rounds,
          token: benchToken,
        },
        log,
      );
      if (writes.error) log(`  FAILED: ${writes.error}`);
      throughput.push(writes);
      await fresh.stop();
      servers.pop();

      // After everything else on this catalogue: it adds books. A server of its own, whose request may
      // take as long as the import does (the body arrives while it is written).
      log(`importing ${IMPORT_RECORDS.toLocaleString('en')} MARCXML records over HTTP from a fresh server`);
      const importer = await startServer({
        name: 'import',
        args: catalogueEntry('server'),
        env: {
          ...catalogueEnv,
          ...catalogue.env,
          CATALOGUE_REQUEST_TIMEOUT_SECONDS: '3600',
          CATALOGUE_IMPORT_MAX_BYTES: String(2 ** 32),
        },
        readyPath: '/health',
        logDir: scratch,
        timeoutMs: 300_000,
      });
      servers.push(importer);
      try {
        imports = await measureImport(importer, IMPORT_RECORDS, benchToken);
        log(
          `  ${imports.recordsPerSecond.toLocaleString('en')} records/s, RSS idle ${imports.idleRssMiB} MiB, +${imports.growthMiB} MiB`,
        );
      } catch (error) {
        importsError = error instanceof Error ? error.message : String(error);
        log(`  FAILED: ${importsError}`);
      }
    } finally {
      while (servers.length) await servers.pop()?.stop();
      await catalogue.drop();
    }

    try {
      changeFeed = await changeFeedScenario(options, scratch);
    } catch (error) {
      changeFeedError = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${changeFeedError}`);
    }

    try {
      lendingRules = await lendingRulesScenario(options, scratch);
    } catch (error) {
      lendingRulesError = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${lendingRulesError}`);
    }

    try {
      lostLoans = await lostLoansScenario(options);
    } catch (error) {
      lostLoansError = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${lostLoansError}`);
    }

    try {
      desk = await deskScenario(options, scratch);
    } catch (error) {
      deskError = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${deskError}`);
    }

    try {
      sip2 = await sip2Scenario(options, scratch);
    } catch (error) {
      sip2Error = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${sip2Error}`);
    }

    try {
      notices = await noticesScenario(options);
    } catch (error) {
      noticesError = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${noticesError}`);
    }

    // Last: clusters of its own (a primary and a standby), at the smallest size, so it takes minutes.
    const smallest = options.sizes[0] as number;
    log(`scaling: a primary and a standby on this machine, ${smallest.toLocaleString('en')} books`);
    try {
      scaling = await measureScaling(
        {
          books: smallest,
          pairs: SCALING_PAIRS,
          reads: SCALING_READS,
          seconds: options.duration,
          rounds: options.rounds,
          connections: options.connections,
          threads: options.threads,
          logDir: scratch,
        },
        (line) => log(`  ${line}`),
      );
    } catch (error) {
      scalingError = error instanceof Error ? error.message : String(error);
      log(`  FAILED: ${scalingError}`);
    }
  } finally {
    if (!options.keep) rmSync(scratch, { recursive: true, force: true });
  }

  const results: Results = {
    mode: options.quick ? 'quick' : 'full',
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    minutes: Math.round((Date.now() - started) / 6000) / 10,
    machine,
    settings: {
      sizes: options.sizes,
      rounds: options.rounds,
      seconds: options.duration,
      connections: options.connections,
      threads: options.threads,
      samples: options.samples,
      catalogueEntry: catalogueEntry('server').join(' ').replace(repoRoot, ''),
    },
    listings,
    largestSize: largest,
    throughput,
    ...(stream && { stream }),
    ...(streamError && { streamError }),
    ...(marcXmlStream && { marcXmlStream }),
    ...(marcXmlStreamError && { marcXmlStreamError }),
    ...(oai && { oai }),
    ...(imports && { imports }),
    ...(importsError && { importsError }),
    ...(peer && { peer }),
    ...(scaling && { scaling }),
    ...(scalingError && { scalingError }),
    ...(changeFeed && { changeFeed }),
    ...(changeFeedError && { changeFeedError }),
    ...(lendingRules && { lendingRules }),
    ...(lendingRulesError && { lendingRulesError }),
    ...(lostLoans && { lostLoans }),
    ...(lostLoansError && { lostLoansError }),
    ...(desk && { desk }),
    ...(deskError && { deskError }),
    ...(sru && { sru }),
    ...(sruError && { sruError }),
    ...(sip2 && { sip2 }),
    ...(sip2Error && { sip2Error }),
    ...(notices && { notices }),
    ...(noticesError && { noticesError }),
  };
  for (const path of writeReport(options.docsDir, results)) log(`wrote ${path}`);
}

async function describeMachine(databaseUrl: string): Promise<Record<string, string>> {
  const cpu = cpus();
  return {
    cpu: `${cpu[0]?.model ?? 'unknown'} × ${cpu.length}`,
    memory: `${Math.round(totalmem() / 1024 ** 3)} GiB`,
    kernel: `Linux ${release()}`,
    node: process.version,
    postgresql: (await serverVersion(databaseUrl)).split(' on ')[0] ?? 'unknown',
    wrk: (await output(WRK, ['-v'], { anyExit: true }))?.split('\n')[0]?.split(' [')[0] ?? 'unknown',
    'load average at start': loadavg()
      .map((n) => n.toFixed(2))
      .join(', '),
    commit: (await output('git', ['describe', '--always', '--dirty']))?.trim() ?? 'unknown',
  };
}

/** The URL without its password, for the log. */
function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

process.on('SIGINT', () => {
  process.stderr.write(
    '\ninterrupted: servers stop with this terminal; the next run drops leftover bench_* databases\n',
  );
  process.exit(130);
});

try {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(`${usage}\n`);
  } else if (options.only) {
    await runAlone(options);
  } else if (options.from) {
    const results = JSON.parse(readFileSync(options.from, 'utf8')) as Results;
    for (const path of writeReport(options.docsDir, results)) log(`wrote ${path}`);
  } else {
    await main(options);
  }
} catch (error) {
  const known = error instanceof OptionsError || (error instanceof TypeError && 'code' in error);
  process.stderr.write(
    `bench: ${known ? (error as Error).message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  if (error instanceof OptionsError || known) process.stderr.write(`${usage}\n`);
  process.exit(1);
}

/** Figures of a scenario that could not be measured. */
const noFigures = { first: { samplesMs: [], medianMs: Number.NaN, p90Ms: Number.NaN } };
