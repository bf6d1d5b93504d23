/** @module What a tool answers instead of a document: a message for the agent, and the HTTP error behind it. */
import type { ErrorDetails } from '../domain/errors.js';

/** Why a tool call did not give a document; shown to the agent as an MCP tool error (`isError: true`). */
export class ToolError extends Error {
  constructor(
    message: string,
    /** The HTTP status of the answer that refused it, when the app refused it. */
    readonly status?: number,
    /** Per-field messages, as the app's error shape gives them. */
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
