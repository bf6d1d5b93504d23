/**
 * @module Assembles the HTTP application: middleware, routes, and the single mapping of errors to the
 * error shape. Everything it needs comes in through `createApp`, so tests run the real app in-process.
 */
import { type Context, Hono, type NotFoundHandler } from 'hono';
import { type Config, defaultConfig } from './config.js';
import { CallerCache } from './db/callers.js';
import type { Database } from './db/client.js';
import { LendingRulesCache } from './db/lending-rules.js';
import { type Clock, systemClock } from './domain/clock.js';
import { type CatalogueError, NotFound } from './domain/errors.js';
import { EXACT_COUNT_LIMIT, PAGE_JUMP_LIMIT } from './domain/limits.js';
import { createPolicy } from './domain/policy.js';
import type { RateLimits } from './domain/rate-limits.js';
import type { Format } from './formats/format.js';
import { formats as registeredFormats } from './formats/registry.js';
import { ChangeStreams, changeStreamOptions } from './http/change-streams.js';
import { deprecationsOf } from './http/deprecation.js';
import type { AppEnv } from './http/env.js';
import { errorResponse, toCatalogueError } from './http/errors.js';
import { createFrame } from './http/middleware/frame.js';
import { ProcessQuotaCounter } from './http/quota-counter.js';
import { RateLimiter } from './http/rate-limit.js';
import { pageContext } from './http/respond.js';
import { frameRoutes } from './http/route.js';
import { accountRoutes } from './http/routes/accounts.js';
import { assetRoutes } from './http/routes/assets.js';
import { authorRoutes } from './http/routes/authors.js';
import { bookRoutes } from './http/routes/books.js';
import { branchClosureRoutes } from './http/routes/branch-closures.js';
import { changeRoutes, type EventPageWriter, writeEventPage } from './http/routes/changes.js';
import { copyRoutes } from './http/routes/copies.js';
import { descriptionRoutes } from './http/routes/description.js';
import { deskRoutes } from './http/routes/desk.js';
import { holdRoutes } from './http/routes/holds.js';
import { importRoutes } from './http/routes/imports.js';
import { lendingListRoutes } from './http/routes/lending-lists.js';
import { loanRuleRoutes } from './http/routes/loan-rules.js';
import { loanRoutes } from './http/routes/loans.js';
import { mcpRoutes } from './http/routes/mcp.js';
import { meRoutes } from './http/routes/me.js';
import { noticeRoutes } from './http/routes/notices.js';
import { pinRoutes } from './http/routes/pins.js';
import { healthRoutes, rootRoutes } from './http/routes/root.js';
import { sessionRoutes } from './http/routes/session.js';
import { suggestionRoutes } from './http/routes/suggestions.js';
import { userRoutes } from './http/routes/users.js';
import { SharedQuotaCounter } from './http/shared-quota-counter.js';
import { Uris } from './hypermedia/uris.js';
import { vocabulary as catalogueVocabulary, type Vocabulary } from './hypermedia/vocabulary.js';
import { createLogger, type Logger } from './log.js';
import { oaiPmhRoutes } from './protocols/oai-pmh/index.js';
import { sruRoutes } from './protocols/sru/index.js';

/** The settings the app itself reads, as configuration gives them. */
const APP_SETTINGS = [
  'publicUrl',
  'access',
  'rateLimits',
  'pins',
  'changes',
  'oai',
  'importMaxBytes',
  'currency',
  'timeZone',
] as const;
export type AppSettings = Pick<Config, (typeof APP_SETTINGS)[number]>;

/**
 * The database, and the settings as `Config` has them; a setting left out (tests leave most out) is what
 * an empty environment gives it (`defaultConfig`).
 */
export interface AppOptions extends Partial<AppSettings> {
  database: Database;
  log?: Logger;
  /** The media types offered; the registry's by default. */
  formats?: readonly Format[];
  /**
   * The rels and controls, with any deprecations to announce; the catalogue's own by default. Tests pass
   * one from `deprecate()` to exercise the mechanism without retiring a real name.
   */
  vocabulary?: Vocabulary;
  /**
   * Where rate limits are counted: in the database, one count per caller for every process on it (the
   * default on PostgreSQL), or in this process (the default on PGlite, which one process holds alone).
   */
  rateLimitCounting?: 'database' | 'process';
  /** Listing totals up to this many matches are exact, beyond it estimated; `EXACT_COUNT_LIMIT` by default. */
  listingCountLimit?: number | undefined;
  /** Items a `page=N` jump may skip by OFFSET; `PAGE_JUMP_LIMIT` by default. */
  pageJumpLimit?: number | undefined;
  /**
   * The change feed's live streams: the server makes them to close them on shutdown, tests to count them.
   * One of the app's own, bounded by `changes`, when absent.
   */
  changeStreams?: ChangeStreams;
  /** Where business time comes from (due dates, overdue, a hold's expiry); the machine's clock by default. */
  clock?: Clock;
  /**
   * How a change stream writes a page of events; one text (`writeEventPage`) when absent. Not a setting:
   * the benchmark passes `writeSSE` once per event, to measure what the default earns.
   */
  writeEventPage?: EventPageWriter;
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const settings = settingsOf(options);
  const log = options.log ?? createLogger({ enabled: false });
  const uris = new Uris(settings.publicUrl ?? '');
  const formats = options.formats ?? registeredFormats;
  const vocabulary = options.vocabulary ?? catalogueVocabulary;
  const deprecations = deprecationsOf(vocabulary);
  const rateLimiter = settings.rateLimits === false ? undefined : createRateLimiter(options, settings.rateLimits, log);
  const listingCountLimit = options.listingCountLimit ?? EXACT_COUNT_LIMIT;
  const pageJumpLimit = options.pageJumpLimit ?? PAGE_JUMP_LIMIT;
  const clock = options.clock ?? systemClock;
  const app = new Hono<AppEnv>();

  // Errors as problem documents when asked for, else in the negotiated format where it has its own way to
  // show them (a page for a browser). Through the context, so that headers set before the error (clearing
  // a stale session cookie) are kept. The problem type is the profile's href, never built from the request's
  // Host (RFC 9457 lets it be relative, resolved against the document's URI like every other link).
  const respondWithError = (error: CatalogueError, c: Context<AppEnv>) => {
    const format = c.get('format');
    const response = errorResponse(error, {
      accept: c.req.header('accept'),
      profile: (c.get('uris') ?? uris).profile(),
      format,
      page: format?.drawsPages ? pageContext(c, uris) : undefined,
    });
    return c.newResponse(response.body, response);
  };
  const onError = (error: Error, c: Context<AppEnv>) => respondWithError(toCatalogueError(error, c, log), c);

  const lendingRules = new LendingRulesCache(options.database);
  const services = {
    database: options.database,
    uris,
    deprecations,
    rateLimiter,
    listingCountLimit,
    pageJumpLimit,
    formats,
    clock,
    lendingRules,
  };
  const policy = createPolicy(settings.access, clock, settings.currency);
  const authentication = { uris, policy, callers: new CallerCache(options.database) };
  const uploadMaxBytes = settings.importMaxBytes;
  const frame = createFrame(app, { log, formats, services, authentication, onError, uploadMaxBytes });

  // A load balancer's probe: answered before anything else, whatever token or Accept it sends.
  healthRoutes(app, options.database);
  // Every handler from here on runs in the frame: the format, the caller, the limits, the log line.
  frameRoutes(app, frame);
  assetRoutes(app, formats);
  rootRoutes(app);
  descriptionRoutes(app, { formats, vocabulary });
  sessionRoutes(app, { pins: settings.pins });
  bookRoutes(app, { timeZone: settings.timeZone });
  importRoutes(app, { maxBytes: uploadMaxBytes });
  suggestionRoutes(app);
  authorRoutes(app);
  loanRoutes(app, { timeZone: settings.timeZone });
  copyRoutes(app);
  deskRoutes(app, { timeZone: settings.timeZone });
  holdRoutes(app);
  meRoutes(app);
  userRoutes(app);
  pinRoutes(app, { pins: settings.pins });
  accountRoutes(app);
  noticeRoutes(app);
  lendingListRoutes(app);
  branchClosureRoutes(app, { timeZone: settings.timeZone });
  loanRuleRoutes(app, { currency: settings.currency });
  changeRoutes(app, {
    streams: options.changeStreams ?? new ChangeStreams(options.database, changeStreamOptions(settings.changes)),
    retentionDays: settings.changes.retentionDays,
    writePage: options.writeEventPage ?? writeEventPage,
  });
  mcpRoutes(app);
  oaiPmhRoutes(app, { ...settings.oai, publicUrl: settings.publicUrl });
  sruRoutes(app);

  app.notFound(
    frame((c) => {
      throw new NotFound(`nothing lives at ${c.req.path}`);
    }) as NotFoundHandler<AppEnv>,
  );
  app.onError(onError);
  return app;
}

/** The settings given, and for each one left out (or `undefined`), an empty environment's. */
function settingsOf(options: AppOptions): AppSettings {
  const settings: Partial<Record<keyof AppSettings, unknown>> = {};
  for (const name of APP_SETTINGS) settings[name] = options[name] ?? defaultConfig[name];
  return settings as AppSettings;
}

function createRateLimiter(options: AppOptions, limits: RateLimits, log: Logger): RateLimiter {
  const { database } = options;
  const counting = options.rateLimitCounting ?? (database.target.kind === 'postgres' ? 'database' : 'process');
  const counter = counting === 'database' ? new SharedQuotaCounter(database.db, log) : new ProcessQuotaCounter();
  return new RateLimiter(limits, counter);
}
