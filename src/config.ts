/**
 * @module Configuration, read from the environment once at start-up. Nothing else reads `process.env`.
 * A bad value stops the service with a message naming the variable, rather than surfacing later.
 */

import { availableParallelism } from 'node:os';
import { withWritableTarget } from './db/hosts.js';
import { isRepositoryId } from './domain/identifiers.js';
import { DEFAULT_IMPORT_MAX_BYTES } from './domain/limits.js';
import { type AccessPolicy, defaultAccessPolicy } from './domain/policy.js';
import { defaultRateLimits, type RateKind, type RateLimits, type RatePolicy } from './http/rate-limit.js';

/** Where the catalogue keeps its data. */
export type DatabaseTarget =
  /**
   * A PostgreSQL server reached through postgres.js; a URL that lists several hosts carries
   * `target_session_attrs=read-write` (added when left out), so that writes find the primary. Streaming
   * standbys to read from, when given.
   */
  | {
      kind: 'postgres';
      url: string;
      /**
       * `false` when `url` leads through a pooler that hands each transaction any server connection
       * (pgbouncer's transaction mode): no named server-side statements (`DATABASE_PREPARE`). Default true.
       */
      prepare?: boolean;
      /**
       * A direct connection, for what needs one session throughout: LISTEN, and the start-up lock that makes
       * migrations take turns (`DATABASE_LISTEN_URL`). Default: `url`.
       */
      listenUrl?: string;
      replicas?: ReplicasTarget;
    }
  /** Embedded PostgreSQL (PGlite) in a directory, or `memory://` for a throw-away database. */
  | { kind: 'pglite'; dataDir: string };

/** Streaming standbys of the primary that reads may be answered from (docs/scaling.md, "Read replicas"). */
export interface ReplicasTarget {
  /** One `postgres://` URL per standby (`DATABASE_REPLICA_URLS`, comma-separated). */
  urls: string[];
  /** A standby further behind than this gets no reads (`CATALOGUE_REPLICA_MAX_LAG`, seconds, default 5). */
  maxLagSeconds: number;
}

/** Seconds a standby may be behind the primary and still answer reads, by default. */
export const DEFAULT_REPLICA_MAX_LAG_SECONDS = 5;

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  /**
   * Server processes sharing the port (`CATALOGUE_WORKERS`, a number or `auto` for the available cores;
   * default 1). More than one needs PostgreSQL: an embedded data directory opens in one process only.
   */
  workers: number;
  /** Load the sample catalogue into an empty database on first start. */
  seedSample: boolean;
  /**
   * Public base URL behind a reverse proxy (e.g. `https://example.org/catalogue`). When set, every href is
   * absolute under it; when unset, hrefs are path-absolute and resolve against the request URL.
   */
  publicUrl: string | undefined;
  /** One log line per request on stdout. */
  logRequests: boolean;
  /** Who may do what, and the lending rules. */
  access: AccessPolicy;
  /** A token that authenticates a librarian, for automation and first use (created at start-up). */
  adminToken: string | undefined;
  /** Per-caller limits on searches, unpaginated streams and writes; `false` for none. */
  rateLimits: RateLimits | false;
  /** The change feed (`/changes`). */
  changes: ChangesConfig;
  /** How long connections may take and how many one process holds. */
  connections: ConnectionsConfig;
  /** The OAI-PMH endpoint (`/oai`). */
  oai: OaiConfig;
  /** Largest file an import takes over HTTP, in bytes (`CATALOGUE_IMPORT_MAX_BYTES`, default 256 MiB). */
  importMaxBytes: number;
}

/** The OAI-PMH repository (docs/records.md, "OAI-PMH"). */
export interface OaiConfig {
  /**
   * The repository id in every record's identifier, `oai:<id>:book/<n>` (`CATALOGUE_OAI_REPOSITORY_ID`);
   * when unset, the public URL's host name if it is a domain name, else `catalogue`. Harvesters keep
   * identifiers: set it once.
   */
  repositoryId: string | undefined;
  /** Who harvesters write to, as Identify tells (`CATALOGUE_OAI_ADMIN_EMAIL`). */
  adminEmail: string | undefined;
  /** Records per page of ListIdentifiers and ListRecords (`CATALOGUE_OAI_PAGE_SIZE`, default 100). */
  pageSize: number;
}

export const defaultOaiConfig: OaiConfig = { repositoryId: undefined, adminEmail: undefined, pageSize: 100 };

export interface ChangesConfig {
  /** Days events are kept before pruning (`CATALOGUE_CHANGES_RETENTION_DAYS`, default 30). */
  retentionDays: number;
  /** Seconds of silence after which an event stream sends `: keep-alive` (`CATALOGUE_CHANGES_KEEPALIVE_SECONDS`, 15). */
  keepAliveSeconds: number;
  /** Event streams one process serves at once, beyond which it answers 503 (`CATALOGUE_CHANGES_MAX_STREAMS`, 200). */
  maxStreams: number;
}

export const defaultChangesConfig: ChangesConfig = { retentionDays: 30, keepAliveSeconds: 15, maxStreams: 200 };

/**
 * Bounds on connections, so that clients that send nothing or send slowly cannot hold the process's sockets
 * (and open files) for ever. Each is one of Node's own: docs/operations.md, "Connections", says which.
 */
export interface ConnectionsConfig {
  /** Seconds a connection may wait without a request under way (`CATALOGUE_IDLE_TIMEOUT_SECONDS`, 5). */
  idleSeconds: number;
  /** Seconds from a request's first byte until its headers are in (`CATALOGUE_HEADERS_TIMEOUT_SECONDS`, 20). */
  headersSeconds: number;
  /** Seconds from a request's first byte until its body is in (`CATALOGUE_REQUEST_TIMEOUT_SECONDS`, 30). */
  requestSeconds: number;
  /** Connections one process holds at once; more are closed as they open (`CATALOGUE_MAX_CONNECTIONS`, 512). */
  maxConnections: number;
}

export const defaultConnectionsConfig: ConnectionsConfig = {
  idleSeconds: 5,
  headersSeconds: 20,
  requestSeconds: 30,
  maxConnections: 512,
};

/** A configuration value that cannot be used; the message names the variable and what it accepts. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  return {
    port: readPort(env.PORT),
    host: env.HOST?.trim() || '0.0.0.0',
    database: readDatabase(env),
    workers: readWorkers(env.CATALOGUE_WORKERS),
    seedSample: readChoice('CATALOGUE_SEED', env.CATALOGUE_SEED, ['sample', 'none'], 'sample') === 'sample',
    publicUrl: readPublicUrl(env.CATALOGUE_PUBLIC_URL),
    logRequests: readChoice('CATALOGUE_LOG', env.CATALOGUE_LOG, ['requests', 'none'], 'requests') === 'requests',
    access: {
      publicReads:
        readChoice('CATALOGUE_PUBLIC_READS', env.CATALOGUE_PUBLIC_READS, ['true', 'false'], 'true') === 'true',
      loanDays: readWhole('CATALOGUE_LOAN_DAYS', env.CATALOGUE_LOAN_DAYS, 1, 365) ?? defaultAccessPolicy.loanDays,
      maxActiveLoans: readLoanCap(env.CATALOGUE_MAX_ACTIVE_LOANS),
      holdDays: readWhole('CATALOGUE_HOLD_DAYS', env.CATALOGUE_HOLD_DAYS, 1, 365) ?? defaultAccessPolicy.holdDays,
      maxHolds: readWhole('CATALOGUE_MAX_HOLDS', env.CATALOGUE_MAX_HOLDS, 0, 10_000) ?? defaultAccessPolicy.maxHolds,
      maxRenewals:
        readWhole('CATALOGUE_MAX_RENEWALS', env.CATALOGUE_MAX_RENEWALS, 0, 100) ?? defaultAccessPolicy.maxRenewals,
    },
    adminToken: readAdminToken(env.CATALOGUE_ADMIN_TOKEN),
    rateLimits: readRateLimits(env.CATALOGUE_RATE_LIMITS),
    changes: {
      retentionDays:
        readWhole('CATALOGUE_CHANGES_RETENTION_DAYS', env.CATALOGUE_CHANGES_RETENTION_DAYS, 1, 3650) ??
        defaultChangesConfig.retentionDays,
      keepAliveSeconds:
        readWhole('CATALOGUE_CHANGES_KEEPALIVE_SECONDS', env.CATALOGUE_CHANGES_KEEPALIVE_SECONDS, 1, 300) ??
        defaultChangesConfig.keepAliveSeconds,
      maxStreams:
        readWhole('CATALOGUE_CHANGES_MAX_STREAMS', env.CATALOGUE_CHANGES_MAX_STREAMS, 1, 100_000) ??
        defaultChangesConfig.maxStreams,
    },
    connections: readConnections(env),
    oai: readOai(env),
    importMaxBytes:
      readWhole('CATALOGUE_IMPORT_MAX_BYTES', env.CATALOGUE_IMPORT_MAX_BYTES, 1024, 2 ** 40) ??
      DEFAULT_IMPORT_MAX_BYTES,
  };
}

function readOai(env: Env): OaiConfig {
  const repositoryId = env.CATALOGUE_OAI_REPOSITORY_ID?.trim() || undefined;
  if (repositoryId !== undefined && !isRepositoryId(repositoryId)) {
    throw new ConfigError(
      `CATALOGUE_OAI_REPOSITORY_ID must be a domain name such as catalogue.example.org, got "${repositoryId}"`,
    );
  }
  const adminEmail = env.CATALOGUE_OAI_ADMIN_EMAIL?.trim() || undefined;
  if (adminEmail !== undefined && !/^[^\s@<>]+@([^\s@<>.]+\.)+[^\s@<>.]+$/.test(adminEmail)) {
    throw new ConfigError(`CATALOGUE_OAI_ADMIN_EMAIL must be an e-mail address, got "${adminEmail}"`);
  }
  const pageSize =
    readWhole('CATALOGUE_OAI_PAGE_SIZE', env.CATALOGUE_OAI_PAGE_SIZE, 1, 1000) ?? defaultOaiConfig.pageSize;
  return { repositoryId, adminEmail, pageSize };
}

function readConnections(env: Env): ConnectionsConfig {
  const defaults = defaultConnectionsConfig;
  const connections = {
    idleSeconds:
      readWhole('CATALOGUE_IDLE_TIMEOUT_SECONDS', env.CATALOGUE_IDLE_TIMEOUT_SECONDS, 1, 3600) ?? defaults.idleSeconds,
    headersSeconds:
      readWhole('CATALOGUE_HEADERS_TIMEOUT_SECONDS', env.CATALOGUE_HEADERS_TIMEOUT_SECONDS, 1, 3600) ??
      defaults.headersSeconds,
    requestSeconds:
      readWhole('CATALOGUE_REQUEST_TIMEOUT_SECONDS', env.CATALOGUE_REQUEST_TIMEOUT_SECONDS, 1, 3600) ??
      defaults.requestSeconds,
    maxConnections:
      readWhole('CATALOGUE_MAX_CONNECTIONS', env.CATALOGUE_MAX_CONNECTIONS, 1, 1_000_000) ?? defaults.maxConnections,
  };
  // Node refuses a headers timeout longer than the request's, which includes the headers.
  if (connections.headersSeconds > connections.requestSeconds) {
    throw new ConfigError(
      `CATALOGUE_HEADERS_TIMEOUT_SECONDS (${connections.headersSeconds}) must not exceed CATALOGUE_REQUEST_TIMEOUT_SECONDS (${connections.requestSeconds})`,
    );
  }
  return connections;
}

function readWhole(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return number;
}

/** A whole number, `none` for no cap (an operator's explicit choice), or the default cap when unset. */
function readLoanCap(value: string | undefined): number | undefined {
  if (value?.trim() === 'none') return undefined;
  try {
    return readWhole('CATALOGUE_MAX_ACTIVE_LOANS', value, 1, 10_000) ?? defaultAccessPolicy.maxActiveLoans;
  } catch {
    throw new ConfigError(
      `CATALOGUE_MAX_ACTIVE_LOANS must be a whole number from 1 to 10000 or "none", got "${value}"`,
    );
  }
}

/**
 * `off`, or per-minute quotas for some of the kinds, e.g. `search=300,write=60`; kinds not named keep
 * their defaults.
 */
function readRateLimits(value: string | undefined): RateLimits | false {
  const text = value?.trim() ?? '';
  if (text === 'off') return false;
  const limits: Record<RateKind, RatePolicy> = { ...defaultRateLimits };
  if (text === '') return limits;
  for (const part of text.split(',')) {
    const match = /^\s*(search|stream|write)\s*=\s*(\d{1,6})\s*$/.exec(part);
    if (!match || Number(match[2]) < 1) {
      throw new ConfigError(
        `CATALOGUE_RATE_LIMITS must be "off" or kind=per-minute pairs such as "search=120,stream=20,write=120", got "${value}"`,
      );
    }
    limits[match[1] as RateKind] = { limit: Number(match[2]), windowSeconds: 60 };
  }
  return limits;
}

/** Long enough not to be guessed; printable so that it fits an Authorization header. */
function readAdminToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 24 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError('CATALOGUE_ADMIN_TOKEN must be at least 24 printable characters without spaces');
  }
  return value;
}

function readPort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function readDatabase(env: Env): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
    }
    const target = withWritableTarget(url);
    if ('refusal' in target) throw new ConfigError(`DATABASE_URL: ${target.refusal}`);
    const listenUrl = readListenUrl(env.DATABASE_LISTEN_URL);
    const prepare = readChoice('DATABASE_PREPARE', env.DATABASE_PREPARE, ['true', 'false'], 'true') === 'true';
    const replicas = readReplicas(env);
    return {
      kind: 'postgres',
      url: target.url,
      ...(!prepare && { prepare }),
      ...(listenUrl && { listenUrl }),
      ...(replicas && { replicas }),
    };
  }
  if (env.DATABASE_REPLICA_URLS?.trim()) {
    throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL: standbys replicate a PostgreSQL server');
  }
  return { kind: 'pglite', dataDir: env.CATALOGUE_DATA_DIR?.trim() || './data' };
}

/** `DATABASE_LISTEN_URL`, which may list several hosts as `DATABASE_URL` may: LISTEN must reach the primary. */
function readListenUrl(value: string | undefined): string | undefined {
  const url = value?.trim();
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('DATABASE_LISTEN_URL must be a postgres:// or postgresql:// URL');
  }
  const target = withWritableTarget(url);
  if ('refusal' in target) throw new ConfigError(`DATABASE_LISTEN_URL: ${target.refusal}`);
  return target.url;
}

/** Most server processes one machine is expected to want; a typo such as 400 stops start-up instead. */
const MAX_WORKERS = 64;

function readWorkers(value: string | undefined): number {
  if (value?.trim() === 'auto') return Math.min(availableParallelism(), MAX_WORKERS);
  try {
    return readWhole('CATALOGUE_WORKERS', value, 1, MAX_WORKERS) ?? 1;
  } catch {
    throw new ConfigError(
      `CATALOGUE_WORKERS must be a whole number from 1 to ${MAX_WORKERS} or "auto", got "${value}"`,
    );
  }
}

/** The standbys, when any are named; a URL is never echoed back, since it may carry a password. */
function readReplicas(env: Env): ReplicasTarget | undefined {
  const maxLagSeconds =
    readWhole('CATALOGUE_REPLICA_MAX_LAG', env.CATALOGUE_REPLICA_MAX_LAG, 1, 3600) ?? DEFAULT_REPLICA_MAX_LAG_SECONDS;
  const text = env.DATABASE_REPLICA_URLS?.trim();
  if (!text) return undefined;
  const urls = text.split(',').map((url) => url.trim());
  urls.forEach((url, i) => {
    if (!/^postgres(ql)?:\/\/[^\s]+$/.test(url)) {
      throw new ConfigError(
        `DATABASE_REPLICA_URLS must be postgres:// or postgresql:// URLs separated by commas; entry ${i + 1} is not one`,
      );
    }
  });
  if (new Set(urls).size !== urls.length) throw new ConfigError('DATABASE_REPLICA_URLS names a standby twice');
  return { urls, maxLagSeconds };
}

function readChoice<T extends string>(name: string, value: string | undefined, choices: T[], fallback: T): T {
  if (value === undefined || value.trim() === '') return fallback;
  const choice = choices.find((c) => c === value.trim());
  if (!choice) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got "${value}"`);
  return choice;
}

function readPublicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`CATALOGUE_PUBLIC_URL must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`CATALOGUE_PUBLIC_URL must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.search || url.hash) throw new ConfigError('CATALOGUE_PUBLIC_URL must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}
