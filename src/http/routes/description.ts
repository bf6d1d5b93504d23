/**
 * @module The interface described, generated from the vocabulary and the route table: the profile (a
 * resource like any other, in every format) and the OpenAPI document.
 */
import type { Hono } from 'hono';
import { type Affordance, isAffordance } from '../../affordances/affordance.js';
import type { Format } from '../../formats/format.js';
import { paths } from '../../hypermedia/uris.js';
import type { Vocabulary } from '../../hypermedia/vocabulary.js';
import { type ControlTarget, renderProfile } from '../../renderers/profile.js';
import type { AppEnv } from '../env.js';
import { llmsTxt } from '../llms-txt.js';
import { openApiDocument } from '../openapi.js';
import { send } from '../respond.js';
import { type Operations, type RouteEntry, route, routesOf } from '../route.js';

const operations = {
  profile: { GET: { summary: 'The profile: every link relation and control, its fields, and when it appears' } },
  openapi: { GET: { summary: 'This OpenAPI description of the interface', produces: 'application/json' } },
  llms: {
    GET: {
      summary: 'A short Markdown index of the service for LLM tools (llmstxt.org)',
      produces: 'text/markdown; charset=utf-8',
      open: true,
    },
  },
} satisfies Record<string, Operations>;

export function descriptionRoutes(app: Hono<AppEnv>, options: { formats: readonly Format[]; vocabulary: Vocabulary }) {
  const { formats, vocabulary } = options;
  route(app, paths.profile, operations.profile, {
    GET: (c) =>
      send(c, renderProfile(c.get('ctx'), vocabulary, controlTargets(routesOf(app)), c.get('rateLimiter')?.limits)),
  });

  // Generated on first request, when every route has been registered; the same for every caller.
  let openapi: string | undefined;
  route(app, paths.openapi, operations.openapi, {
    GET(c) {
      const uris = c.get('uris');
      openapi ??= JSON.stringify(
        openApiDocument({
          routes: routesOf(app),
          formats,
          vocabulary,
          base: uris.pathTemplate(''),
          profile: uris.profile(),
        }),
      );
      return c.body(openapi, 200, { 'Content-Type': 'application/json; charset=utf-8' });
    },
  });

  // Public even in a closed catalogue: it says how to sign in.
  route(app, paths.llms, operations.llms, {
    GET: (c) => c.body(llmsTxt(c.get('uris')), 200, { 'Content-Type': operations.llms.GET.produces }),
  });
}

/** Where each control submits: the affordances of the route table, at the paths they are served. */
export function controlTargets(routes: readonly RouteEntry[]): ControlTarget[] {
  return routes.flatMap((entry) =>
    Object.values(entry.operations).flatMap((operation) =>
      isAffordance(operation) ? [{ path: entry.path, affordance: operation as Affordance<never> }] : [],
    ),
  );
}
