/**
 * @module Opens the catalogue's database: PGlite (embedded PostgreSQL) or a PostgreSQL server through
 * postgres.js, chosen once from configuration. Both are exposed as one drizzle `Db` type plus what drizzle
 * does not offer: turns for listing reads, sized to the database's connections, and closing.
 */
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { isn } from '@electric-sql/pglite/contrib/isn';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import {
  CONNECT_TIMEOUT_SECONDS,
  LISTING_READS_AT_ONCE,
  LISTING_WAIT_BUDGET_MS,
  STATEMENT_TIME_BUDGET_MS,
} from '../domain/limits.js';
import type { Logger } from '../log.js';
import { lockDataDirectory } from './data-dir-lock.js';
import type { Db } from './db.js';
import { type ChannelListener, type Listening, listenOnPostgres } from './listen.js';
import { Replicas } from './replicas.js';
import * as schema from './schema/index.js';
import { Semaphore } from './semaphore.js';
import type { DatabaseTarget, ReplicasTarget } from './target.js';

// Queries import these from here, beside `Database`.
export { type Db, rowsOf } from './db.js';

export interface Database {
  db: Db;
  target: DatabaseTarget;
  /** A semaphore for listing reads (pages, searches, a stream's batches), so they never crowd out short requests. */
  listingReads: Semaphore;
  /** Subscribes to notifications (`NOTIFY`, `pg_notify`) on a channel; see `ChannelListener`. */
  listen(channel: string, listener: ChannelListener): void;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, which `openPglite` can start from. */
  dump?: () => Promise<Blob>;
  /** The primary's streaming standbys, when configured: where reads may go instead (docs/scaling.md). */
  replicas?: Replicas<Database>;
}

export interface OpenOptions {
  /** Where a standby's changes of state (down, lagging, back) are told. */
  log?: Logger | undefined;
}

/** Seconds before retrying a connection that failed. */
const RECONNECT_BACKOFF_SECONDS = 0.1;

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'postgres') {
    const primary = openPostgres(target);
    return target.replicas ? withReplicas(primary, target.replicas, options) : primary;
  }
  if (target.dataDir === 'memory://') return openPglite(target);
  const lock = lockDataDirectory(target.dataDir);
  try {
    const database = await openPglite(target);
    return { ...database, close: () => database.close().finally(() => lock.release()) };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * A PostgreSQL server through postgres.js. Notifications come through a connection of its own, opened on
 * the first subscription, unless `listen` is given (a standby's are the primary's).
 */
function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>, listen?: Database['listen']): Database {
  const client = postgresClient(target.url, target);
  let listening: Listening | undefined;
  return {
    db: drizzlePostgres(client, { schema }),
    target,
    listingReads: new Semaphore(LISTING_READS_AT_ONCE.postgres, LISTING_WAIT_BUDGET_MS),
    listen:
      listen ??
      ((channel, listener) => {
        listening ??= listenOnPostgres(target.listenUrl ?? target.url);
        listening.listen(channel, listener);
      }),
    close: () => Promise.all([client.end({ timeout: 5 }), listening?.close()]).then(() => {}),
  };
}

/**
 * The primary with a `Database` per standby, probed from now on. A standby's `listen` is the primary's:
 * notifications are sent at commit on the primary, and a standby cannot LISTEN.
 */
function withReplicas(primary: Database, target: ReplicasTarget, options: OpenOptions): Database {
  // Through the same kind of pooler as the primary, if any.
  const prepare = primary.target.kind === 'postgres' ? primary.target.prepare : undefined;
  const standbys = target.urls.map((url, i) => ({
    name: `replica ${i + 1}`,
    database: openPostgres({ kind: 'postgres', url, ...(prepare === false && { prepare }) }, (channel, listener) =>
      primary.listen(channel, listener),
    ),
  }));
  const replicas = new Replicas(primary.db, standbys, { maxLagSeconds: target.maxLagSeconds, log: options.log });
  return { ...primary, replicas, close: () => replicas.close().then(() => primary.close()) };
}

function postgresClient(url: string, { prepare = true }: { prepare?: boolean | undefined }) {
  return postgres(url, {
    max: 10,
    onnotice: () => {},
    // An unreachable server is answered 503 within a second rather than after the driver's 30 s default.
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // The driver's default backoff after failed connections grows to 20 s, and queries wait for it: an
    // outage turned into requests hanging for seconds. Retrying soon keeps every answer within a second
    // (a 503 while the server is down) and recovery immediate; connections are only retried on demand.
    backoff: () => RECONNECT_BACKOFF_SECONDS,
    connection: { statement_timeout: STATEMENT_TIME_BUDGET_MS },
    // Off, no statement is named, drizzle's `.prepare(name)` included: it asks the driver per query, and the
    // driver's option wins (docs/operations.md, "Behind pgbouncer").
    prepare,
  });
}

/** Opens PGlite; `loadDataDir` starts from a dump (tests use a migrated snapshot to skip initdb). */
export async function openPglite(
  target: Extract<DatabaseTarget, { kind: 'pglite' }>,
  loadDataDir?: Blob,
): Promise<Database> {
  const client = await PGlite.create({
    ...(target.dataDir === 'memory://' ? {} : { dataDir: target.dataDir }),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { pg_trgm, unaccent, fuzzystrmatch, isn },
  });
  return {
    db: drizzlePglite(client, { schema }),
    target,
    listingReads: new Semaphore(LISTING_READS_AT_ONCE.pglite, LISTING_WAIT_BUDGET_MS),
    listen(channel, listener) {
      // One connection, in this process, which cannot drop: nothing is ever lost.
      client
        .listen(channel, (payload) => listener.notified(payload))
        .then(
          () => listener.ready(),
          () => {},
        );
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir('gzip'),
  };
}
