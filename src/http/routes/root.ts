/** @module The root document and the health check. */
import type { Hono } from 'hono';
import type { Database } from '../../db/client.js';
import { databaseAnswers } from '../../db/migrate.js';
import { ServiceUnavailable } from '../../domain/errors.js';
import { HEALTH_DEADLINE_MS } from '../../domain/limits.js';
import type { Resource } from '../../hypermedia/model.js';
import { paths } from '../../hypermedia/uris.js';
import { renderRoot } from '../../renderers/root.js';
import type { AppEnv } from '../env.js';
import { securityHeaders } from '../middleware/security-headers.js';
import { send } from '../respond.js';
import { type Operations, route } from '../route.js';

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/` */
  root: { GET: { summary: 'The root document, where every client starts', open: true } },
  /** `/health` */
  health: {
    GET: {
      summary:
        'Health check: 200 while the database answers, 503 otherwise; with read replicas, each one\u2019s state and lag',
      produces: 'application/json',
      unauthenticated: true,
      errors: [503],
    },
  },
} satisfies Record<string, Operations>;

export function rootRoutes(app: Hono<AppEnv>): void {
  // The root reads nothing from the database: as an anonymous caller sees it, it is the same document for
  // the life of the app, rendered and serialised once per format.
  let anonymousRoot: Resource | undefined;
  route(app, paths.root, operations.root, {
    GET(c) {
      const ctx = c.get('ctx');
      if (ctx.caller.kind !== 'anonymous') return send(c, renderRoot(ctx));
      anonymousRoot ??= renderRoot(ctx);
      return send(c, anonymousRoot, { constant: true });
    },
  });
}

/** For load balancers and orchestrators: 200 while the database answers, 503 otherwise. */
export function healthRoutes(app: Hono<AppEnv>, database: Database): void {
  route(app, paths.health, operations.health, {
    async GET(c) {
      if (!(await databaseAnswers(database.db, HEALTH_DEADLINE_MS))) {
        throw new ServiceUnavailable('the database does not answer', 1);
      }
      // With standbys, each database's role and how far behind it is; never where it is.
      const replicas = database.replicas;
      const body = replicas
        ? { status: 'ok', databases: [{ role: 'primary' }, ...replicas.health()] }
        : { status: 'ok' };
      return c.json(body, 200, { ...securityHeaders, 'Cache-Control': 'no-store' });
    },
  });
}
