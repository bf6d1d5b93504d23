/**
 * @module The service's entry point: reads configuration, opens and prepares the database, serves HTTP (and
 * SIP2 with `CATALOGUE_SIP2_PORT`), and shuts down gracefully on SIGTERM/SIGINT (stop accepting, finish
 * requests, close the database). With `CATALOGUE_WORKERS` above 1 on PostgreSQL, this process prepares the database and supervises that many
 * copies of itself on the same port (src/workers.ts), each serving as one process does alone.
 */
import cluster from 'node:cluster';
import { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { pruneChangesPeriodically } from './db/change-retention.js';
import { type Database, openDatabase } from './db/client.js';
import { DataDirectoryInUse } from './db/data-dir-lock.js';
import { expireHoldsPeriodically } from './db/hold-expiry.js';
import { declareLostPeriodically } from './db/lost-loans.js';
import { prepareDatabase, preparePostgres } from './db/migrate.js';
import { restoreSetAsideIndexes } from './db/queries/set-aside-indexes.js';
import { systemClock } from './domain/clock.js';
import { ChangeStreams, changeStreamOptions } from './http/change-streams.js';
import { boundConnections, connectionOptions } from './http/connections.js';
import { withoutParameters } from './http/errors.js';
import { createLogger, type Logger } from './log.js';
import { startNotices } from './notices/index.js';
import { type Sip2Listener, startSip2Listener } from './protocols/sip2/index.js';
import { superviseWorkers } from './workers.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Each worker's lines carry its pid: N processes write to one stream.
  const log = createLogger({ enabled: config.logRequests, ...(cluster.isWorker && { pid: process.pid }) });
  if (cluster.isWorker) return serveCatalogue(config, log);
  if (config.workers > 1 && config.database.kind === 'postgres') {
    showFirstToken(
      await preparePostgres(config.database, {
        seedSample: config.seedSample,
        adminToken: config.adminToken,
        lending: config.access,
      }),
    );
    return superviseWorkers(config.workers, log);
  }
  if (config.workers > 1) {
    log.info('one process', {
      workers: 1,
      reason: `CATALOGUE_WORKERS=${config.workers} needs a PostgreSQL server (DATABASE_URL): an embedded data directory can be opened by one process only`,
    });
  }
  const database = await openDatabase(config.database, { log });
  showFirstToken(
    await prepareDatabase(database, {
      seedSample: config.seedSample,
      adminToken: config.adminToken,
      lending: config.access,
    }),
  );
  return serveCatalogue(config, log, database);
}

function showFirstToken(token: string | undefined): void {
  if (!token) return;
  // Shown once, on the terminal that started the service, and never logged again: only its hash is kept.
  process.stdout.write(
    `\nFirst start: a librarian was created. Their token (shown only now):\n\n  ${token}\n\n` +
      'Send it as "Authorization: Bearer <token>". Create more users and tokens through /users.\n\n',
  );
}

/** Serves on a database prepared already (a worker opens its own: the primary prepared it). */
async function serveCatalogue(config: Config, log: Logger, opened?: Database): Promise<void> {
  const database = opened ?? (await openDatabase(config.database, { log }));
  const changeStreams = new ChangeStreams(database, changeStreamOptions(config.changes));
  const stopPruning = pruneChangesPeriodically(database, config.changes.retentionDays, log);
  // One clock for the app's answers and the sweep's SQL: business time (src/domain/clock.ts).
  const clock = systemClock;
  const stopExpiring = expireHoldsPeriodically(database, { holdDays: config.access.holdDays, clock }, log);
  const stopDeclaringLost = declareLostPeriodically(
    database,
    { clock, timeZone: config.timeZone, currency: config.currency },
    log,
  );
  const { smtpUrl, ...notices } = config.notices;
  const stopNotices = smtpUrl
    ? startNotices(database, { ...notices, smtpUrl, clock, timeZone: config.timeZone }, log)
    : async () => {};
  const app = createApp({
    database,
    clock,
    publicUrl: config.publicUrl,
    log,
    access: config.access,
    rateLimits: config.rateLimits,
    changeStreams,
    changes: config.changes,
    oai: config.oai,
    importMaxBytes: config.importMaxBytes,
  });
  const server = serve(
    {
      fetch: app.fetch,
      port: config.port,
      hostname: config.host,
      serverOptions: connectionOptions(config.connections),
    },
    (info) => {
      const where = config.database.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${config.database.dataDir}`;
      log.info('listening', { url: `http://localhost:${info.port}/`, database: where });
    },
  );
  if (server instanceof Server) boundConnections(server, config.connections);
  // A bulk load killed before it built its indexes again: built now, in the background, since requests
  // are answered without them meanwhile (only more slowly) and a build may take minutes.
  restoreSetAsideIndexes(database.db, (built, total, name) =>
    log.info(name ? 'index built' : 'building indexes set aside', { name, built, total }),
  ).catch((error: unknown) => log.error('indexes not built', { error: withoutParameters(error) }));
  // SIP2 for self-check machines: a second listener of this process, on the same database and rules.
  const sip2: Sip2Listener | undefined =
    config.sip2.port === undefined
      ? undefined
      : await startSip2Listener({
          database,
          clock,
          access: config.access,
          currency: config.currency,
          timeZone: config.timeZone,
          pins: config.pins,
          log,
          port: config.sip2.port,
          host: config.host,
          idleSeconds: config.sip2.idleSeconds,
        }).catch((error: NodeJS.ErrnoException) => {
          const reason =
            error.code === 'EADDRINUSE' ? 'is in use' : `cannot be listened on (${error.code ?? error.message})`;
          process.stderr.write(
            `catalogue could not start: SIP2 port ${config.sip2.port} on ${config.host} ${reason}\n`,
          );
          return database.close().finally(() => process.exit(1)) as Promise<never>;
        });

  // Listening fails after start-up's checks (a port in use, one the user may not bind): say so as plainly
  // as a bad setting, not as an unhandled 'error' event with a stack.
  server.once('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? 'is in use' : `cannot be listened on (${error.code ?? error.message})`;
    process.stderr.write(`catalogue could not start: port ${config.port} on ${config.host} ${reason}\n`);
    database.close().finally(() => process.exit(1));
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    // Unstarted keep-alive connections would hold close() open; in-flight requests still finish. Event
    // streams never finish by themselves: they are ended (clients reconnect, elsewhere, by Last-Event-ID).
    const closing = new Promise<void>((resolve) => server.close(() => resolve()));
    stopPruning();
    stopExpiring();
    stopDeclaringLost();
    changeStreams.close();
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    const deadline = setTimeout(() => {
      log.error('requests still open after 10 s; exiting');
      process.exit(1);
    }, 10_000);
    deadline.unref();
    // The sender's round under way marks its notices before the database closes.
    Promise.all([closing, stopNotices(), sip2?.close()])
      .then(() => database.close())
      .then(() => {
        log.info('stopped');
        process.exit(0);
      });
  };
  // A promise nobody awaited that failed is a defect to fix, not a reason to drop every open request:
  // it is logged (without query parameters) and the service keeps serving.
  process.on('unhandledRejection', (reason) => {
    log.error('unhandled rejection', { error: withoutParameters(reason) });
  });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  const expected = error instanceof ConfigError || error instanceof DataDirectoryInUse;
  const message = expected ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`catalogue could not start: ${message}\n`);
  process.exit(1);
});
