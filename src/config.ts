/**
 * @module Configuration, read from the environment once at start-up. Nothing else reads `process.env`.
 * Every variable is declared once in `environment`: its parser (with its range), its default and what it
 * means; `Config` is inferred from it, and README's table of settings is checked against it. A bad value
 * stops the service with a message naming the variable, rather than surfacing later.
 */

import { availableParallelism } from 'node:os';
import * as z from 'zod';
import { withWritableTarget } from './db/hosts.js';
import type { DatabaseTarget } from './db/target.js';
import { isRepositoryId } from './domain/identifiers.js';
import type { LendingSettings } from './domain/lending-rules.js';
import { isTimeZone } from './domain/local-dates.js';
import type { PinLockout } from './domain/pin.js';
import type { AccessPolicy } from './domain/policy.js';
import type { RateKind, RateLimits } from './domain/rate-limits.js';

/** What README's table says of a variable, besides its name. */
export interface Setting {
  /** What an unset (or blank) variable stands for, written as the variable would be; absent: nothing. */
  default?: string;
  /** The default column, where the default is worked out from other settings rather than written. */
  shown?: string;
  /** What it does (Markdown). */
  meaning: string;
  /** The value may hold a password or a secret: an error never repeats it. */
  secret?: boolean;
  /** Spaces around the value are part of it (and refused) rather than trimmed. */
  untrimmed?: boolean;
}

/** Each variable's `Setting`, by its schema in `environment`. */
export const settings = z.registry<Setting>();

/** A variable: blank is unset, and unset is its default (or `undefined` when it has none). */
function setting<T>(parser: z.ZodType<T, string>, described: Setting & { default: string }): z.ZodType<T, unknown>;
function setting<T>(parser: z.ZodType<T, string>, described: Setting): z.ZodType<T | undefined, unknown>;
function setting<T>(parser: z.ZodType<T, string>, described: Setting): z.ZodType<T | undefined, unknown> {
  const text = (value: unknown) => {
    if (typeof value !== 'string') return described.default;
    const given = described.untrimmed ? value : value.trim();
    return given === '' ? described.default : given;
  };
  const schema = z.preprocess(text, described.default === undefined ? parser.optional() : parser);
  settings.add(schema, described);
  return schema;
}

const wholeNumberError = (min: number, max: number, word?: string) =>
  `must be a whole number from ${min} to ${max}${word === undefined ? '' : ` or "${word}"`}`;

/** The one parser of whole numbers: digits only (no sign, exponent or fraction), from `min` to `max`. */
function wholeNumber(min: number, max: number, error = wholeNumberError(min, max)): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^\d+$/, { error })
    .transform(Number)
    .pipe(z.number().min(min, { error }).max(max, { error }));
}

/** A word that stands for a value (`auto`, `none`), or a whole number from `min` to `max`. */
function wholeNumberOr<V>(word: string, value: () => V, min: number, max: number): z.ZodType<number | V, string> {
  const error = wholeNumberError(min, max, word);
  return z.union([z.literal(word).transform(value), wholeNumber(min, max, error)], { error });
}

/** One of a few words. */
function oneOf<const T extends string>(...choices: T[]): z.ZodType<T, string> {
  return z.enum(choices as [T, ...T[]], { error: `must be one of ${choices.join(', ')}` });
}

/** An ISO 4217 currency code the platform knows (`EUR`, `GBP`), as three capitals. */
const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 currency code, three capital letters (EUR, GBP, USD)' })
  .refine((code) => Intl.supportedValuesOf('currency').includes(code), {
    error: 'is not an ISO 4217 currency code known to this platform',
  });

/** An IANA time zone the platform knows (`Europe/Paris`, `UTC`). */
const timeZoneName = z.string().refine(isTimeZone, { error: 'must be an IANA time zone name (Europe/Paris, UTC)' });

const trueOrFalse = oneOf('true', 'false').transform((value) => value === 'true');

/**
 * A `postgres://` URL; one that lists several hosts must let writes find the primary
 * (`target_session_attrs=read-write`, added when left out).
 */
const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
  .transform((url, ctx) => {
    const target = withWritableTarget(url);
    if ('url' in target) return target.url;
    ctx.issues.push({ code: 'custom', message: target.refusal, input: url });
    return z.NEVER;
  });

/** The standbys, comma-separated; a URL is never echoed back, since it may carry a password. */
const replicaUrls = z.string().transform((text, ctx) => {
  const urls = text.split(',').map((url) => url.trim());
  const wrong = urls.findIndex((url) => !/^postgres(ql)?:\/\/[^\s]+$/.test(url));
  if (wrong >= 0) {
    const message = `must be postgres:// or postgresql:// URLs separated by commas; entry ${wrong + 1} is not one`;
    ctx.issues.push({ code: 'custom', message, input: text });
  } else if (new Set(urls).size !== urls.length) {
    ctx.issues.push({ code: 'custom', message: 'must not name a standby twice', input: text });
  }
  return urls;
});

const publicUrl = z.string().transform((text, ctx) => {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    ctx.issues.push({ code: 'custom', message: 'must be an absolute http(s) URL', input: text });
  } else if (url.search || url.hash) {
    ctx.issues.push({ code: 'custom', message: 'must not carry a query or fragment', input: text });
  } else {
    return url.href.replace(/\/+$/, '');
  }
  return z.NEVER;
});

/** Long enough not to be guessed; printable so that it fits an Authorization header. */
const adminToken = z
  .string()
  .regex(/^[\x21-\x7e]{24,}$/, { error: 'must be at least 24 printable characters without spaces' });

/** Generous for people and well-behaved scripts; a tight loop or a scraper meets them within a minute. */
const RATE_LIMITS = 'search=120,stream=20,write=120';

/** `off`, or per-minute quotas for some of the kinds, e.g. `search=300,write=60`; kinds not named keep their defaults. */
const rateLimits = z.string().transform((text, ctx): RateLimits | false => {
  if (text === 'off') return false;
  const quota = wholeNumber(1, 999_999);
  const limits = {} as Record<RateKind, { limit: number; windowSeconds: number }>;
  for (const part of `${RATE_LIMITS},${text}`.split(',')) {
    const [, kind, number] = /^\s*(search|stream|write)\s*=\s*(.*?)\s*$/.exec(part) ?? [];
    const limit = quota.safeParse(number ?? '');
    if (!limit.success) {
      const message = `must be "off" or kind=per-minute pairs such as "${RATE_LIMITS}"`;
      ctx.issues.push({ code: 'custom', message, input: text });
      return z.NEVER;
    }
    limits[kind as RateKind] = { limit: limit.data, windowSeconds: 60 };
  }
  return limits;
});

const oaiAdminEmail = z.string().regex(/^[^\s@<>]+@([^\s@<>.]+\.)+[^\s@<>.]+$/, { error: 'must be an e-mail address' });

const oaiRepositoryId = z
  .string()
  .refine(isRepositoryId, { error: 'must be a domain name such as catalogue.example.org' });

/** An SMTP server's URL, which nodemailer reads (`smtp://user:pass@host:587`, `smtps://…:465`). */
const smtpUrl = z
  .string()
  .regex(/^smtps?:\/\/[^\s]+$/, { error: 'must be an smtp:// or smtps:// URL' })
  .refine(URL.canParse, { error: 'must be an smtp:// or smtps:// URL' });

/** An address a notice is sent from: one address, nothing a header could be made of besides. */
const noticeFrom = z
  .string()
  .regex(/^[^\s\p{Cc}@<>",;]+@[^\s\p{Cc}@<>",;]+$/u, { error: 'must be one e-mail address' });

/** A name that signs notices and is their sender's display name: one line of printable text. */
const libraryName = z
  .string()
  .max(200, { error: 'must be at most 200 characters' })
  .regex(/^[^\p{Cc}\u2028\u2029]+$/u, { error: 'must be one line without control characters' });

/** Most server processes one machine is expected to want; a typo such as 400 stops start-up instead. */
const MAX_WORKERS = 64;
const seconds = wholeNumber(1, 3600);

/** Every variable the catalogue reads, in README's order. */
export const environment = z.object({
  PORT: setting(wholeNumber(0, 65535), { default: '3000', meaning: 'HTTP port' }),
  HOST: setting(z.string(), { default: '0.0.0.0', meaning: 'interface to listen on' }),
  DATABASE_URL: setting(postgresUrl, {
    secret: true,
    meaning:
      '`postgres://…` to use a PostgreSQL server; unset: embedded PGlite. Several hosts (`postgres://u@db1:5432,db2:5432/db`) for failover: writes go to whichever is the primary ([docs/scaling.md](docs/scaling.md#a-multi-host-url-without-patroni))',
  }),
  DATABASE_PREPARE: setting(trueOrFalse, {
    default: 'true',
    meaning:
      '`false` names no server-side statements, for a `DATABASE_URL` through a transaction pooler such as pgbouncer (docs/operations.md, "Behind pgbouncer")',
  }),
  DATABASE_LISTEN_URL: setting(postgresUrl, {
    secret: true,
    shown: '`DATABASE_URL`',
    meaning:
      'a direct connection to the server, for LISTEN and the start-up lock when `DATABASE_URL` goes through a pooler',
  }),
  CATALOGUE_WORKERS: setting(
    wholeNumberOr('auto', () => Math.min(availableParallelism(), MAX_WORKERS), 1, MAX_WORKERS),
    {
      default: '1',
      meaning:
        'server processes sharing the port (1–64, or `auto` for the available cores); more than one needs `DATABASE_URL` (docs/operations.md, "Several processes on one machine")',
    },
  ),
  DATABASE_REPLICA_URLS: setting(replicaUrls, {
    secret: true,
    meaning:
      'comma-separated `postgres://…` URLs of streaming standbys of `DATABASE_URL` that reads go to ([docs/scaling.md](docs/scaling.md))',
  }),
  CATALOGUE_REPLICA_MAX_LAG: setting(seconds, {
    default: '5',
    meaning: 'seconds a standby may be behind and still answer reads (1–3600)',
  }),
  CATALOGUE_DATA_DIR: setting(z.string(), {
    default: './data',
    meaning: 'PGlite data directory; `memory://` for a throw-away database',
  }),
  CATALOGUE_SEED: setting(oneOf('sample', 'none'), {
    default: 'sample',
    meaning: '`none` skips loading the sample catalogue into an empty database',
  }),
  CATALOGUE_PUBLIC_URL: setting(publicUrl, {
    meaning:
      "public base URL behind a reverse proxy; hrefs become absolute under it. Unset, every URL the catalogue writes is path-absolute: none is built from the request's `Host` or `X-Forwarded-*`",
  }),
  CATALOGUE_LOG: setting(oneOf('requests', 'none'), {
    default: 'requests',
    meaning: '`none` silences the per-request log lines',
  }),
  CATALOGUE_ADMIN_TOKEN: setting(adminToken, {
    secret: true,
    untrimmed: true,
    meaning: 'a token (24+ printable characters) that authenticates a librarian, registered at start-up',
  }),
  CATALOGUE_PUBLIC_READS: setting(trueOrFalse, {
    default: 'true',
    meaning: '`false` requires a token or a browser session for every request but the few listed below the table',
  }),
  CATALOGUE_LOAN_DAYS: setting(wholeNumber(1, 365), {
    default: '14',
    meaning: 'loan period: days from borrowing to the due date (1–365)',
  }),
  // A lending library caps loans per member: without a cap one member could borrow the whole collection.
  // Ten is a common public-library figure.
  CATALOGUE_MAX_ACTIVE_LOANS: setting(
    wholeNumberOr('none', () => undefined, 1, 10_000),
    { default: '10', meaning: 'most active loans a member may hold (1–10000); `none` for no limit' },
  ),
  CATALOGUE_HOLD_DAYS: setting(wholeNumber(1, 365), {
    default: '7',
    meaning: 'days a copy set aside for a ready hold waits for its member (1–365)',
  }),
  CATALOGUE_MAX_HOLDS: setting(wholeNumber(0, 10_000), {
    default: '10',
    meaning: 'most open holds (waiting or ready) a user may have (0–10000)',
  }),
  CATALOGUE_MAX_RENEWALS: setting(wholeNumber(0, 100), {
    default: '2',
    meaning: 'times one loan may be renewed (0–100)',
  }),
  CATALOGUE_CURRENCY: setting(currencyCode, {
    default: 'EUR',
    meaning: 'the library\u2019s currency (ISO 4217): fines and charges are whole amounts of its minor unit (cents)',
  }),
  CATALOGUE_TIME_ZONE: setting(timeZoneName, {
    default: 'UTC',
    meaning:
      'the library\u2019s IANA time zone: the local days that due dates end on, branches open on and fines count',
  }),
  // What a borrower may owe and still borrow: ten euros (cents) is a common public-library figure.
  CATALOGUE_FINE_LIMIT: setting(
    wholeNumberOr('none', () => 'none' as const, 0, 2_147_483_647),
    {
      default: '1000',
      meaning:
        'most a borrower may owe, in minor units (cents), and still borrow and renew (0–2147483647); `none` for no limit',
    },
  ),
  CATALOGUE_SMTP_URL: setting(smtpUrl, {
    secret: true,
    meaning:
      'the SMTP server notices by email are sent through (`smtp://user:pass@host:587`, `smtps://…`); unset: none are sent (docs/operations.md, "Notices by email")',
  }),
  CATALOGUE_NOTICE_FROM: setting(noticeFrom, {
    default: 'catalogue@localhost',
    meaning: 'the address notices are sent from',
  }),
  CATALOGUE_LIBRARY_NAME: setting(libraryName, {
    default: 'The Library',
    meaning: 'the library\u2019s name: the sender of notices, and their signature',
  }),
  CATALOGUE_NOTICE_DUE_DAYS: setting(wholeNumber(1, 60), {
    default: '3',
    meaning: 'days before its due date a loan\u2019s borrower is sent a notice that it is due soon (1–60)',
  }),
  CATALOGUE_RATE_LIMITS: setting(rateLimits, {
    default: RATE_LIMITS,
    meaning: 'per-caller quotas a minute for searches, unpaged streams and writes; `off` for none',
  }),
  // Five tries, then a quarter of an hour: a patron who mistypes gets back in soon, a guesser of a
  // four-digit PIN needs years.
  CATALOGUE_PIN_ATTEMPTS: setting(wholeNumber(1, 100), {
    default: '5',
    meaning: 'wrong PINs in a row that lock a library card for card sign-in (1–100)',
  }),
  CATALOGUE_PIN_LOCKOUT_MINUTES: setting(wholeNumber(1, 10_080), {
    default: '15',
    meaning: 'minutes a locked library card is refused, even with the right PIN (1–10080)',
  }),
  CATALOGUE_IDLE_TIMEOUT_SECONDS: setting(seconds, {
    default: '5',
    meaning: 'a connection with no request under way is closed after this (1–3600)',
  }),
  CATALOGUE_HEADERS_TIMEOUT_SECONDS: setting(seconds, {
    default: '20',
    meaning:
      "a request's headers must arrive within this of its first byte (1–3600; at most `CATALOGUE_REQUEST_TIMEOUT_SECONDS`)",
  }),
  CATALOGUE_REQUEST_TIMEOUT_SECONDS: setting(seconds, {
    default: '30',
    meaning: 'a whole request, body included, must arrive within this of its first byte (1–3600)',
  }),
  CATALOGUE_MAX_CONNECTIONS: setting(wholeNumber(1, 1_000_000), {
    default: '512',
    meaning: 'connections one process holds; more are closed as they open (1–1000000)',
  }),
  CATALOGUE_CHANGES_RETENTION_DAYS: setting(wholeNumber(1, 3650), {
    default: '30',
    meaning: 'days change feed events are kept before they are pruned (1–3650)',
  }),
  CATALOGUE_CHANGES_KEEPALIVE_SECONDS: setting(wholeNumber(1, 300), {
    default: '15',
    meaning: 'a live change stream sends `: keep-alive` after this much silence, and reads the feed again (1–300)',
  }),
  CATALOGUE_CHANGES_MAX_STREAMS: setting(wholeNumber(1, 100_000), {
    default: '200',
    meaning: 'live change streams one process serves; beyond them `503` with `Retry-After` (1–100000)',
  }),
  CATALOGUE_OAI_REPOSITORY_ID: setting(oaiRepositoryId, {
    shown: "the public URL's host, else `catalogue`",
    meaning: 'the repository id in OAI-PMH identifiers, `oai:<id>:book/<n>` (docs/records.md)',
  }),
  CATALOGUE_OAI_ADMIN_EMAIL: setting(oaiAdminEmail, {
    shown: '`oai-admin@<repository id>`',
    meaning: "the contact OAI-PMH's `Identify` gives",
  }),
  CATALOGUE_OAI_PAGE_SIZE: setting(wholeNumber(1, 1000), {
    default: '100',
    meaning: 'records per page of OAI-PMH lists (1–1000)',
  }),
  CATALOGUE_SIP2_PORT: setting(wholeNumber(1, 65535), {
    meaning:
      'TCP port of the SIP2 listener for self-check machines and sorters (1–65535, on `HOST`); unset: none (docs/protocols.md, "SIP2")',
  }),
  // Self-check machines often keep one connection open all day and sit quiet between patrons for minutes.
  CATALOGUE_SIP2_IDLE_SECONDS: setting(wholeNumber(1, 86_400), {
    default: '300',
    meaning: 'a SIP2 terminal that sends nothing for this long is disconnected (1–86400)',
  }),
  // 100,000 MARCXML records of about 1.5 KB each, with room. The file is streamed, so the limit bounds the
  // time an import holds a connection, not the memory it takes.
  CATALOGUE_IMPORT_MAX_BYTES: setting(wholeNumber(1024, 2 ** 40), {
    default: String(256 * 1024 * 1024),
    shown: '`268435456` (256 MiB)',
    meaning: 'largest file `POST /imports` takes, in bytes (1024 – 2^40; docs/records.md, "Import")',
  }),
});

type Environment = z.output<typeof environment>;

/** The variables' values, gathered by what they configure, with the checks that involve two of them. */
const configSchema = environment.transform((env, ctx) => {
  if (env.CATALOGUE_HEADERS_TIMEOUT_SECONDS > env.CATALOGUE_REQUEST_TIMEOUT_SECONDS) {
    // Node refuses a headers timeout longer than the request's, which includes the headers.
    const message = `CATALOGUE_HEADERS_TIMEOUT_SECONDS (${env.CATALOGUE_HEADERS_TIMEOUT_SECONDS}) must not exceed CATALOGUE_REQUEST_TIMEOUT_SECONDS (${env.CATALOGUE_REQUEST_TIMEOUT_SECONDS})`;
    ctx.issues.push({ code: 'custom', message, input: env });
  }
  if (env.DATABASE_REPLICA_URLS && !env.DATABASE_URL) {
    const message = 'DATABASE_REPLICA_URLS needs DATABASE_URL: standbys replicate a PostgreSQL server';
    ctx.issues.push({ code: 'custom', message, input: env });
  }
  return {
    port: env.PORT,
    host: env.HOST,
    database: databaseOf(env),
    /** Server processes sharing the port; more than one needs PostgreSQL (a data directory opens in one only). */
    workers: env.CATALOGUE_WORKERS,
    /** Load the sample catalogue into an empty database on first start. */
    seedSample: env.CATALOGUE_SEED === 'sample',
    /**
     * Public base URL behind a reverse proxy (e.g. `https://example.org/catalogue`). When set, every href is
     * absolute under it; when unset, hrefs are path-absolute and resolve against the request URL.
     */
    publicUrl: env.CATALOGUE_PUBLIC_URL,
    /** One log line per request on stdout. */
    logRequests: env.CATALOGUE_LOG === 'requests',
    /** Who may do what, and the lending rules. */
    access: {
      publicReads: env.CATALOGUE_PUBLIC_READS,
      loanDays: env.CATALOGUE_LOAN_DAYS,
      maxActiveLoans: env.CATALOGUE_MAX_ACTIVE_LOANS,
      holdDays: env.CATALOGUE_HOLD_DAYS,
      maxHolds: env.CATALOGUE_MAX_HOLDS,
      maxRenewals: env.CATALOGUE_MAX_RENEWALS,
      fineLimit: env.CATALOGUE_FINE_LIMIT,
    } satisfies AccessPolicy & LendingSettings,
    /** A token that authenticates a librarian, for automation and first use (created at start-up). */
    adminToken: env.CATALOGUE_ADMIN_TOKEN,
    /** Notices by email: sent only when an SMTP server is named. */
    notices: {
      smtpUrl: env.CATALOGUE_SMTP_URL,
      from: env.CATALOGUE_NOTICE_FROM,
      libraryName: env.CATALOGUE_LIBRARY_NAME,
      dueDays: env.CATALOGUE_NOTICE_DUE_DAYS,
    },
    /** Per-caller limits on searches, unpaginated streams and writes; `false` for none. */
    rateLimits: env.CATALOGUE_RATE_LIMITS,
    /** Wrong PINs that lock a library card, and for how long. */
    pins: {
      attempts: env.CATALOGUE_PIN_ATTEMPTS,
      lockoutMinutes: env.CATALOGUE_PIN_LOCKOUT_MINUTES,
    } satisfies PinLockout,
    /** The change feed (`/changes`): how long events are kept, and its live streams. */
    changes: {
      retentionDays: env.CATALOGUE_CHANGES_RETENTION_DAYS,
      keepAliveSeconds: env.CATALOGUE_CHANGES_KEEPALIVE_SECONDS,
      maxStreams: env.CATALOGUE_CHANGES_MAX_STREAMS,
    },
    /**
     * Bounds on connections, so that clients that send nothing or send slowly cannot hold the process's
     * sockets (and open files) for ever. Each is one of Node's own: docs/operations.md, "Connections".
     */
    connections: {
      idleSeconds: env.CATALOGUE_IDLE_TIMEOUT_SECONDS,
      headersSeconds: env.CATALOGUE_HEADERS_TIMEOUT_SECONDS,
      requestSeconds: env.CATALOGUE_REQUEST_TIMEOUT_SECONDS,
      maxConnections: env.CATALOGUE_MAX_CONNECTIONS,
    },
    /**
     * The OAI-PMH repository (docs/records.md, "OAI-PMH"). Harvesters keep identifiers: set the repository
     * id once.
     */
    oai: {
      repositoryId: env.CATALOGUE_OAI_REPOSITORY_ID,
      adminEmail: env.CATALOGUE_OAI_ADMIN_EMAIL,
      pageSize: env.CATALOGUE_OAI_PAGE_SIZE,
    },
    /** The SIP2 listener (docs/protocols.md, "SIP2"): off unless a port is named. */
    sip2: {
      port: env.CATALOGUE_SIP2_PORT,
      idleSeconds: env.CATALOGUE_SIP2_IDLE_SECONDS,
    },
    /** Largest file an import takes over HTTP, in bytes. */
    importMaxBytes: env.CATALOGUE_IMPORT_MAX_BYTES,
    /** The library's currency (ISO 4217): money in the lending rules is in its minor units. */
    currency: env.CATALOGUE_CURRENCY,
    /** The library's time zone (IANA): its days begin and end there (docs/access-and-loans.md, "Calendar"). */
    timeZone: env.CATALOGUE_TIME_ZONE,
  };
});

/** Where the catalogue keeps its data: a PostgreSQL server when `DATABASE_URL` is set, else PGlite. */
function databaseOf(env: Environment): DatabaseTarget {
  if (!env.DATABASE_URL) return { kind: 'pglite', dataDir: env.CATALOGUE_DATA_DIR };
  const replicas = env.DATABASE_REPLICA_URLS;
  return {
    kind: 'postgres',
    url: env.DATABASE_URL,
    ...(!env.DATABASE_PREPARE && { prepare: false }),
    ...(env.DATABASE_LISTEN_URL && { listenUrl: env.DATABASE_LISTEN_URL }),
    ...(replicas && { replicas: { urls: replicas, maxLagSeconds: env.CATALOGUE_REPLICA_MAX_LAG } }),
  };
}

export type Config = z.output<typeof configSchema>;
export type ChangesConfig = Config['changes'];
export type ConnectionsConfig = Config['connections'];
export type OaiConfig = Config['oai'];
export type NoticesConfig = Config['notices'];

/** A configuration value that cannot be used; the message names the variable and what it accepts. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/**
 * The configuration of `env`, or a `ConfigError` naming each variable that cannot be used: what it must be,
 * and the value given unless it may be a secret.
 */
export function loadConfig(env: Env = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => {
    const [name] = issue.path;
    if (typeof name !== 'string') return issue.message;
    const secret = settings.get(environment.shape[name as keyof Environment])?.secret;
    return `${name} ${issue.message}${secret ? '' : `, got "${env[name]}"`}`;
  });
  throw new ConfigError(messages.join('; '));
}

/** What an empty environment gives: every default. Options left out of `createApp` (tests) are these. */
export const defaultConfig: Config = loadConfig({});
