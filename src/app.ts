/**
 * @module Assembles the HTTP application: middleware, routes, and the single mapping of errors to the
 * error shape. Everything it needs comes in through `createApp`, so tests run the real app in-process.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Database } from './db/client.js';
import { NotFound, PayloadTooLarge } from './domain/errors.js';
import { MAX_BODY_BYTES } from './domain/limits.js';
import { publicCaller } from './domain/policy.js';
import type { Format } from './formats/format.js';
import { formats } from './formats/registry.js';
import type { AppEnv } from './http/env.js';
import { errorResponse, toCatalogueError } from './http/errors.js';
import { negotiateFormat } from './http/middleware/negotiate.js';
import { requestLog } from './http/middleware/request-log.js';
import { authorRoutes } from './http/routes/authors.js';
import { bookRoutes } from './http/routes/books.js';
import { rootRoutes } from './http/routes/root.js';
import { Uris } from './hypermedia/uris.js';
import { createLogger, type Logger } from './log.js';

export interface AppOptions {
  database: Database;
  /** Base of every href; see `Config.publicUrl`. */
  publicUrl?: string | undefined;
  log?: Logger;
  /** The media types offered; the registry's by default. */
  formats?: readonly Format[];
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
  app.use(async function provideContext(c, next) {
    c.set('database', options.database);
    c.set('ctx', { uris, caller: publicCaller });
    await next();
  });

  rootRoutes(app);
  bookRoutes(app);
  authorRoutes(app);

  app.notFound((c) => errorResponse(new NotFound(`nothing lives at ${c.req.path}`)));
  app.onError((error, c) => errorResponse(toCatalogueError(error, c, log)));
  return app;
}
