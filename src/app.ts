/**
 * @module Assembles the HTTP application: middleware, routes, and the single mapping of errors to the
 * error shape. Everything it needs comes in through `createApp`, so tests run the real app in-process.
 */
import { type Context, Hono } from 'hono';
import { CallerCache } from './db/callers.js';
import type { Database } from './db/client.js';
import { type CatalogueError, NotFound } from './domain/errors.js';
import { EXACT_COUNT_LIMIT } from './domain/limits.js';
import { type AccessPolicy, createPolicy, defaultAccessPolicy } from './domain/policy.js';
import type { Format } from './formats/format.js';
import { formats as registeredFormats } from './formats/registry.js';
import { deprecationsOf } from './http/deprecation.js';
import type { AppEnv } from './http/env.js';
import { errorResponse, toCatalogueError } from './http/errors.js';
import { authenticate } from './http/middleware/authenticate.js';
import { noteContextHeaders } from './http/middleware/context-headers.js';
import { formMethod } from './http/middleware/form-method.js';
import { limitBody } from './http/middleware/limit-body.js';
import { limitWrites } from './http/middleware/limit-writes.js';
import { negotiateFormat } from './http/middleware/negotiate.js';
import { requestLog } from './http/middleware/request-log.js';
import { addSecurityHeaders } from './http/middleware/security-headers.js';
import { defaultRateLimits, RateLimiter, type RateLimits } from './http/rate-limit.js';
import { assetRoutes } from './http/routes/assets.js';
import { authorRoutes } from './http/routes/authors.js';
import { bookRoutes } from './http/routes/books.js';
import { descriptionRoutes } from './http/routes/description.js';
import { loanRoutes } from './http/routes/loans.js';
import { healthRoutes, rootRoutes } from './http/routes/root.js';
import { sessionRoutes } from './http/routes/session.js';
import { userRoutes } from './http/routes/users.js';
import { Uris } from './hypermedia/uris.js';
import { vocabulary as catalogueVocabulary, type Vocabulary } from './hypermedia/vocabulary.js';
import { createLogger, type Logger } from './log.js';

export interface AppOptions {
  database: Database;
  /** Base of every href; see `Config.publicUrl`. */
  publicUrl?: string | undefined;
  log?: Logger;
  /** The media types offered; the registry's by default. */
  formats?: readonly Format[];
  /** Who may read, the loan period and the cap on loans; the defaults when absent. */
  access?: AccessPolicy;
  /**
   * The rels and controls, with any deprecations to announce; the catalogue's own by default. Tests pass
   * one from `deprecate()` to exercise the mechanism without retiring a real name.
   */
  vocabulary?: Vocabulary;
  /** Per-caller limits on searches, streams and writes; the defaults when absent, none with `false`. */
  rateLimits?: RateLimits | false;
  /** Listing totals up to this many matches are exact, beyond it estimated; `EXACT_COUNT_LIMIT` by default. */
  listingCountLimit?: number | undefined;
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const log = options.log ?? createLogger({ enabled: false });
  const uris = new Uris(options.publicUrl ?? '');
  const formats = options.formats ?? registeredFormats;
  const vocabulary = options.vocabulary ?? catalogueVocabulary;
  const deprecations = deprecationsOf(vocabulary);
  const rateLimiter =
    options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? defaultRateLimits);
  const listingCountLimit = options.listingCountLimit ?? EXACT_COUNT_LIMIT;
  const app = new Hono<AppEnv>();

  app.use(requestLog(log));
  // Every body, whatever its type, is cut off at the limit as it streams in (a declared length over it
  // is refused unread); nothing after this point can buffer more.
  app.use(limitBody());
  // A form post standing for PUT/PATCH/DELETE is dispatched again as that method, from the top.
  app.use(formMethod(app));
  app.use(noteContextHeaders());
  app.use(addSecurityHeaders());
  app.use(negotiateFormat(formats));
  app.use(async function provideServices(c, next) {
    c.set('database', options.database);
    c.set('uris', uris);
    c.set('deprecations', deprecations);
    c.set('rateLimiter', rateLimiter);
    c.set('listingCountLimit', listingCountLimit);
    await next();
  });
  // Before authentication: a load balancer's probe carries no token.
  healthRoutes(app);
  const callers = new CallerCache(options.database);
  app.use(authenticate({ uris, policy: createPolicy(options.access ?? defaultAccessPolicy), callers }));
  app.use(limitWrites());

  assetRoutes(app, formats);
  rootRoutes(app);
  descriptionRoutes(app, { formats, vocabulary });
  sessionRoutes(app);
  bookRoutes(app);
  authorRoutes(app);
  loanRoutes(app);
  userRoutes(app);

  // Errors in the negotiated format where it has its own way to show them (a page for a browser). Through
  // the context, so that headers set before the error (clearing a stale session cookie) are kept.
  const respondWithError = (error: CatalogueError, c: Context<AppEnv>) => {
    const response = errorResponse(error, c.get('format'), { home: uris.root() });
    return c.newResponse(response.body, response);
  };
  app.notFound((c) => respondWithError(new NotFound(`nothing lives at ${c.req.path}`), c));
  app.onError((error, c) => respondWithError(toCatalogueError(error, c, log), c));
  return app;
}
