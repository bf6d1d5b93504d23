/** @module Renders what a GET of the MCP endpoint answers a person or a generic client: what it is and how to connect. */

import type { RenderContext } from '../affordances/context.js';
import type { Resource } from '../hypermedia/model.js';

/** What the endpoint tells an agent, as the MCP server declares it. */
export interface McpEndpointView {
  instructions: string;
  /** Each tool's description, by name. */
  tools: Readonly<Record<string, { title: string; description: string }>>;
}

export function renderMcpEndpoint(ctx: RenderContext, view: McpEndpointView): Resource {
  const { uris } = ctx;
  return {
    kind: 'mcp',
    state: {
      name: 'MCP endpoint',
      description:
        'The Model Context Protocol endpoint for LLM agents: point an MCP client at this URL (Streamable HTTP). ' +
        'It is stateless: each POST carries JSON-RPC messages and is answered in JSON; there is no SSE stream ' +
        'to GET and no session to end.',
      url: uris.mcp(),
      authentication:
        'Authorization: Bearer <token>, as for every request: the agent acts as that user and is offered what ' +
        'that user may do. Without it, the agent is anonymous.',
      instructions: view.instructions,
      tools: Object.fromEntries(Object.entries(view.tools).map(([name, tool]) => [name, tool.description])),
    },
    links: [
      { rel: 'self', href: uris.mcp() },
      { rel: 'profile', href: uris.profile(), title: 'What the links and controls mean' },
    ],
    controls: [],
  };
}
