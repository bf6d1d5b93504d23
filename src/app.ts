/**
 * @module Assembles the HTTP application: middleware, routes, and the single mapping of errors to the
 * error shape. Everything it needs comes in through `createApp`, so tests run the real app in-process.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Database } from './db/client.js';
import { NotFound, PayloadTooLarge } from './domain/errors.js';
import { MAX_BODY_BYTES } from './domain/limits.js';
import { type AccessPolicy, createPolicy, defaultAccessPolicy } from './domain/policy.js';
import type { Format } from './formats/format.js';
import { formats } from './formats/registry.js';
import type { AppEnv } from './http/env.js';
import { errorResponse, toCatalogueError } from './http/errors.js';
import { authenticate } from './http/middleware/authenticate.js';
import { negotiateFormat } from './http/middleware/negotiate.js';
import { requestLog } from './http/middleware/request-log.js';
import { authorRoutes } from './http/routes/authors.js';
import { bookRoutes } from './http/routes/books.js';
import { loanRoutes } from './http/routes/loans.js';
import { healthRoutes, rootRoutes } from './http/routes/root.js';
import { userRoutes } from './http/routes/users.js';
import { Uris } from './hypermedia/uris.js';
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
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const log = options.log ?? createLogger({ enabled: false });
  const uris = new Uris(options.publicUrl ?? '');
  const app = new Hono<AppEnv>();

  app.use(requestLog(log));
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new PayloadTooLarge(MAX_BODY_BYTES);
      },
    }),
  );
  app.use(negotiateFormat(options.formats ?? formats));
  app.use(async function provideDatabase(c, next) {
    c.set('database', options.database);
    await next();
  });
  // Before authentication: a load balancer's probe carries no token.
  healthRoutes(app);
  app.use(authenticate({ uris, policy: createPolicy(options.access ?? defaultAccessPolicy) }));

  rootRoutes(app);
  bookRoutes(app);
  authorRoutes(app);
  loanRoutes(app);
  userRoutes(app);

  app.notFound((c) => errorResponse(new NotFound(`nothing lives at ${c.req.path}`)));
  app.onError((error, c) => errorResponse(toCatalogueError(error, c, log)));
  return app;
}
