/**
 * @module Server-sent events (`text/event-stream`, HTML Living Standard §9.2), the text Hono's `streamSSE`
 * is given to write: a change feed's events as `id:`, `event:` and `data:` lines, comments, and `retry:`.
 * Translation only: which events, and their ids, were decided before. An event's
 * `data:` is the same JSON object a page of the feed lists it as.
 */
import type { Resource } from '../hypermedia/model.js';
import { memberText } from './json.js';

export const EVENT_STREAM = 'text/event-stream';

/**
 * One event: its `id:` (what the client sends back as `Last-Event-ID`), its type as `event:`, and the
 * member's JSON on one `data:` line (JSON text holds no raw line breaks). As text, so that a page of events
 * is one write: Hono's `writeSSE` writes each message on its own (see docs/performance/what-stays.md).
 */
export function sseEvent(resource: Resource, id: string): string {
  return `id: ${id}\nevent: ${String(resource.state.type)}\ndata: ${memberText(resource)}\n\n`;
}

/** A comment line, which clients ignore: keeps idle connections (and proxies) from timing out. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** How long a client waits before reconnecting after the connection drops, in milliseconds. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.round(ms)}\n\n`;
}
