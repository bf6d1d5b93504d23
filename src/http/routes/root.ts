/** @module The root document and the health check. */
import type { Hono } from 'hono';
import { databaseAnswers } from '../../db/migrate.js';
import { CatalogueError } from '../../domain/errors.js';
import { renderRoot } from '../../renderers/root.js';
import type { AppEnv } from '../env.js';
import { send } from '../respond.js';
import { type Operations, route } from '../route.js';

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/` */
  root: { GET: { summary: 'The root document, where every client starts' } },
  /** `/health` */
  health: {
    GET: {
      summary: 'Health check: 200 while the database answers, 503 otherwise',
      produces: 'application/json',
      unauthenticated: true,
      errors: [503],
    },
  },
} satisfies Record<string, Operations>;

export function rootRoutes(app: Hono<AppEnv>): void {
  route(app, '/', operations.root, {
    GET: (c) => send(c, renderRoot(c.get('ctx'))),
  });
}

/** For load balancers and orchestrators: 200 while the database answers, 503 otherwise. */
export function healthRoutes(app: Hono<AppEnv>): void {
  route(app, '/health', operations.health, {
    async GET(c) {
      if (!(await databaseAnswers(c.get('database').db))) {
        throw new CatalogueError(503, 'the database does not answer');
      }
      return c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' });
    },
  });
}
