/**
 * @module What a tool call must be before any tool runs: params naming a tool, and values nested no deeper
 * than a template variable (RFC 6570) or a control's field can take. Anything else is refused in words.
 */
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/**
 * How many levels of lists or maps a value may have. A template variable's value is a string, a list or a
 * map of strings (RFC 6570 §2.3), and a field takes one value: one level is all any of them can use, and a
 * deeper value would be flattened by the expansion without a word.
 */
export const MAX_VALUE_DEPTH = 1;

const scalars = [z.string(), z.number(), z.boolean(), z.null()] as const;

/**
 * A value with at most `depth` levels of lists or maps. Each level of the input is looked at once: an input
 * nested thousands deep fails at the level past the bound, without going further.
 */
function nestedUpTo(depth: number, params?: { error: (issue: { path?: PropertyKey[] }) => string }): z.ZodType {
  if (depth === 0) return z.union(scalars, params);
  const inner = nestedUpTo(depth - 1);
  return z.union([...scalars, z.array(inner), z.record(z.string(), inner)], params);
}

/** Values by name: a templated link's variables, or a control's fields. */
export const values = z.record(
  z.string(),
  nestedUpTo(MAX_VALUE_DEPTH, {
    error: (issue) =>
      `"${String(issue.path?.at(-1))}" must be a string, number, boolean or null, or a list or map of them: ` +
      `values are nested at most ${MAX_VALUE_DEPTH} level deep (RFC 6570)`,
  }),
);

const TOOL_CALL = 'tools/call takes params {"name": the tool, "arguments": an object of its arguments}';

/**
 * Answers a `tools/call` whose params are no call (none, no tool name, arguments that are not an object)
 * with -32602 Invalid params, in words. The SDK's server parses the request before the check of its own
 * that would say so, and answers its failure as an internal error (-32603) carrying the raw issues.
 */
export function refuseMalformedCalls(transport: WebStandardStreamableHTTPServerTransport): void {
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (
      isJSONRPCRequest(message) &&
      message.method === 'tools/call' &&
      !CallToolRequestSchema.safeParse(message).success
    ) {
      void transport.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${TOOL_CALL}` },
      });
      return;
    }
    receive?.(message, extra);
  };
}
