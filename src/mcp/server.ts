/**
 * @module The MCP server behind `/mcp`: four fixed tools (start, get, follow, submit) over Streamable HTTP,
 * stateless: each POST gets a server and transport of its own, so any process answers any request.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { MAX_BODY_BYTES } from '../domain/limits.js';
import { fieldSchema } from '../hypermedia/model.js';
import type { AppClient } from './app-client.js';
import { refuseMalformedCalls, values as valueSchema } from './arguments.js';
import { type AgentDocument, structuredOf, textOf } from './document.js';
import { ToolError } from './errors.js';
import { follow, get, start, submit } from './tools.js';

/** Told to the agent's client at initialisation: how to work with the catalogue. */
export const INSTRUCTIONS =
  'This server is the library catalogue\u2019s hypermedia API, as the user whose token is in the Authorization ' +
  'header (anonymous without one). Call start for the root document. Every result shows a document: its data, ' +
  'its items (a page of a collection, each with its href), its links (rel and URL) and its controls (the ' +
  'actions this user may take there, each with typed fields). Move with follow (a document\u2019s URL and a ' +
  'rel; a templated link takes values for its variables) or get (a URL from a result: a link, an item\u2019s ' +
  'href, a Location). Act with submit (the document\u2019s URL, a control\u2019s name and values for its fields); ' +
  'a field with options is filled from the items of the collection it names. Never build or edit URLs: use only ' +
  'those given in results. An action that is not among a document\u2019s controls is not allowed to this user.';

const url = z
  .string()
  .describe('A URL exactly as a result gave it (a link, an item\u2019s href, a Location); never one built by hand.');
const values = valueSchema.describe(
  'Values by name, JSON-typed (a number for an integer field); a list repeats a query parameter; a value is a ' +
    'string, number, boolean or null, or a list or map of them (nested no deeper).',
);

/** What every tool answers, as structured content: a document, or (with `isError`) why there is none. */
const output = {
  status: z.number().int().optional().describe('The HTTP status of the answer.'),
  url: z.string().optional(),
  location: z.string().optional().describe('Where the new resource lives (201).'),
  data: z.record(z.string(), z.unknown()).nullable().optional().describe('The resource\u2019s own fields.'),
  meta: z.record(z.string(), z.unknown()).optional().describe('A page\u2019s numbers: page, per_page, totals.'),
  items: z.array(z.record(z.string(), z.unknown())).optional().describe('Members: each its href and fields.'),
  truncated: z.boolean().optional().describe('A whole collection had more items than shown.'),
  facets: z
    .array(
      z.object({
        name: z.string(),
        title: z.string(),
        values: z.array(
          z.object({ value: z.string(), label: z.string(), count: z.number(), chosen: z.boolean(), href: z.string() }),
        ),
        estimated: z.boolean().optional(),
      }),
    )
    .optional()
    .describe(
      'A page\u2019s facets (asked for with `facets`): counted values; get a value\u2019s href for the listing ' +
        'narrowed to it, or, for a chosen one, the listing without it.',
    ),
  links: z
    .array(
      z.object({ rel: z.string(), href: z.string(), title: z.string().optional(), templated: z.boolean().optional() }),
    )
    .optional(),
  controls: z
    .array(
      z.object({
        name: z.string(),
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        title: z.string().optional(),
        fields: z.array(fieldSchema),
      }),
    )
    .optional(),
  error: z
    .object({ message: z.string(), details: z.record(z.string(), z.string()).optional() })
    .optional()
    .describe('Why the call failed (with isError).'),
};

const reads = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** The four tools: what an agent is told of each, declared once (the endpoint's GET document lists them). */
export const toolDeclarations = {
  start: {
    title: 'Start at the root',
    description:
      'The root document of the catalogue, where every task starts: its links (books, authors, search, loans, ' +
      'me …) and controls as this user sees them. Go on with follow, get and submit, using only URLs from results.',
  },
  get: {
    title: 'Get a document',
    description:
      'The document at a URL given in an earlier result (a link\u2019s href, an item\u2019s href, a Location, a ' +
      'field\u2019s options), with its data, items, links and controls. For a templated link use follow.',
  },
  follow: {
    title: 'Follow a link',
    description:
      'Follow the link with relation `rel` of the document at `url`, and answer the document it leads to. A ' +
      'templated link (e.g. the root\u2019s `search`) is expanded (RFC 6570) with `values` for its variables, ' +
      'e.g. {"query": "austen", "per_page": 20}: a listing without page or per_page answers the whole ' +
      'collection (shown cut to its first items), with them one page and its next link.',
  },
  submit: {
    title: 'Submit a control',
    description:
      'Take an action: submit the control named `control` of the document at `url` (e.g. "borrow" on a book, ' +
      '"return" on a loan, "create" on a collection, "search") with `values` for its fields. The server takes ' +
      'the control from that document as this user sees it, checks the values against its fields (type, ' +
      'required, bounds, choices), sends it, and answers the status, Location and resulting document. Fields ' +
      'left out keep the value the control gives them. Some controls change or delete data.',
  },
} as const;

/** An MCP server whose tools act through `client`, for one request. */
export function createMcpServer(client: AppClient): McpServer {
  const server = new McpServer(
    { name: 'catalogue', title: 'Library catalogue', version: 'unversioned' },
    { instructions: INSTRUCTIONS },
  );
  const declared = <N extends keyof typeof toolDeclarations>(name: N, annotations: ToolAnnotations) => ({
    ...toolDeclarations[name],
    outputSchema: output,
    annotations: { title: toolDeclarations[name].title, ...annotations },
  });
  server.registerTool('start', { ...declared('start', reads), inputSchema: {} }, () => answer(() => start(client)));
  server.registerTool('get', { ...declared('get', reads), inputSchema: { url } }, (args) =>
    answer(() => get(client, args.url)),
  );
  server.registerTool(
    'follow',
    {
      ...declared('follow', reads),
      inputSchema: {
        url,
        rel: z.string().describe('A link relation of that document, e.g. "books", "author", "next", "search".'),
        values: values.optional(),
      },
    },
    (args) => answer(() => follow(client, args.url, args.rel, args.values)),
  );
  server.registerTool(
    'submit',
    {
      ...declared('submit', {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      }),
      inputSchema: {
        url,
        control: z.string().describe('The name of one of that document\u2019s controls.'),
        values: values.optional(),
      },
    },
    (args) => answer(() => submit(client, args.url, args.control, args.values)),
  );
  // Registering a tool announces `listChanged`; these four never change.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/** A tool's result: the document as text and as structured content, or a tool error saying why not. */
async function answer(act: () => Promise<AgentDocument>): Promise<CallToolResult> {
  try {
    const document = await act();
    return { content: [{ type: 'text', text: textOf(document) }], structuredContent: structuredOf(document) };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return {
      isError: true,
      content: [{ type: 'text', text: error.message }],
      structuredContent: {
        ...(error.status !== undefined && { status: error.status }),
        error: { message: error.message, ...(error.details && { details: error.details }) },
      },
    };
  }
}

/** Answers one Streamable HTTP request to `/mcp` with a server and transport of its own. */
export async function answerMcp(request: Request, client: AppClient): Promise<Response> {
  const server = createMcpServer(client);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  refuseMalformedCalls(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
