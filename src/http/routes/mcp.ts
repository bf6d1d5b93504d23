/**
 * @module `/mcp`: the Model Context Protocol endpoint (Streamable HTTP), the hypermedia API for LLM agents.
 * Its tools answer by requests to this app, as the bearer of the MCP request's `Authorization`; see
 * `src/mcp/`. POST only: a stateless server offers no SSE stream (GET) and no session to end (DELETE), and
 * answers both 405, as the transport's specification allows.
 */
import type { Hono } from 'hono';
import { paths } from '../../hypermedia/uris.js';
import { AppClient } from '../../mcp/app-client.js';
import { Scope } from '../../mcp/scope.js';
import { answerMcp } from '../../mcp/server.js';
import type { AppEnv } from '../env.js';
import { type Operations, route } from '../route.js';

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/mcp` */
  mcp: {
    POST: {
      summary:
        'MCP over Streamable HTTP, stateless (JSON answers): JSON-RPC messages for the tools start, get, follow ' +
        'and submit',
      consumes: 'application/json',
      produces: 'application/json',
      status: 200,
      // Open in a closed catalogue like the root: each tool's request is gated as any client's is.
      open: true,
      dispatches: true,
      errors: [400],
    },
  },
} satisfies Record<string, Operations>;

export function mcpRoutes(app: Hono<AppEnv>): void {
  route(app, paths.mcp, operations.mcp, {
    POST(c) {
      const here = new URL(c.req.url);
      const client = new AppClient({
        // In process, with this request's environment: the same client address for the rate limits.
        fetch: (request) => app.fetch(request, c.env),
        origin: here.origin,
        scope: new Scope(new URL(c.get('uris').root(), here).href),
        authorization: c.req.header('authorization'),
      });
      return answerMcp(c.req.raw, client);
    },
  });
}
