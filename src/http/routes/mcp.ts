/**
 * @module `/mcp`, the Model Context Protocol endpoint (Streamable HTTP, stateless) for LLM agents; its tools
 * (`src/mcp/`) answer by requests to this app as the bearer of the MCP request's `Authorization`.
 */
import type { Hono } from 'hono';
import { CatalogueError } from '../../domain/errors.js';
import { paths } from '../../hypermedia/uris.js';
import { AppClient } from '../../mcp/app-client.js';
import { Scope } from '../../mcp/scope.js';
import { answerMcp, INSTRUCTIONS, toolDeclarations } from '../../mcp/server.js';
import { renderMcpEndpoint } from '../../renderers/mcp.js';
import type { AppEnv } from '../env.js';
import { askingWhy } from '../middleware/asking-why.js';
import { send } from '../respond.js';
import { type Operations, route } from '../route.js';

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/mcp` */
  mcp: {
    GET: {
      summary:
        'What the MCP endpoint is and how to connect; an MCP client\u2019s GET for an SSE stream (Accept: ' +
        'text/event-stream) is answered 405: the endpoint is stateless',
      open: true,
      dispatches: true,
      errors: [405],
    },
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
    GET(c) {
      if (c.req.header('accept')?.includes('text/event-stream')) throw new NoEventStream();
      return send(c, renderMcpEndpoint(c.get('ctx'), { instructions: INSTRUCTIONS, tools: toolDeclarations }));
    },
    POST(c) {
      const here = new URL(c.req.url);
      const client = new AppClient({
        // In process, with this request's environment (the same client address for the rate limits), asking
        // why the controls left out are left out.
        fetch: (request, withheld) => app.fetch(request, askingWhy(c.env, withheld)),
        origin: here.origin,
        scope: new Scope(c.get('uris').root(), here.origin),
        authorization: c.req.header('authorization'),
      });
      return answerMcp(c.req.raw, client);
    },
  });
}

/** 405 to an MCP client asking for an SSE stream: a stateless endpoint has none to offer (MCP, Streamable HTTP). */
class NoEventStream extends CatalogueError {
  constructor() {
    super(405, 'this MCP endpoint is stateless and offers no SSE stream: POST JSON-RPC messages to it', undefined, {
      Allow: 'GET, HEAD, POST, OPTIONS',
    });
  }
}
