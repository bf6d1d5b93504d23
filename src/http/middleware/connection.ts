/**
 * @module What a request's connection says that the Fetch `Request` cannot: the `Host` headers as sent, and
 * the rest of a body the answer no longer needs. In-process requests have no connection.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { InvalidInput } from '../../domain/errors.js';

/** The Node request under `c`, when it came over a socket (@hono/node-server's `env.incoming`). */
function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * Refuses a request with more than one `Host` header: RFC 9112 §3.2 requires a 400. Node keeps only the
 * first in `headers`, so they are counted in `rawHeaders` (names and values, alternating).
 */
export function checkHost(c: Context): void {
  const raw = incomingOf(c)?.rawHeaders;
  if (!raw) return;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) {
      throw new InvalidInput('a request must carry exactly one Host header');
    }
  }
}

/**
 * Once the answer is given, the rest of the body is read and thrown away, so that the connection serves the
 * next request (a 413 for a declared length, a 401, 403 or 415 decided from the headers). @hono/node-server
 * drains what a handler left unread (up to 64 MiB, within 500 ms, then it closes the connection), but a body
 * that was begun as a Web stream stays paused by that stream: its listener is dropped first, as Node's own
 * `IncomingMessage` does when it discards a body nobody read.
 */
export function discardPendingBody(c: Context): void {
  const incoming = incomingOf(c);
  if (!incoming || incoming.complete || incoming.readableEnded) return;
  incoming.removeAllListeners('data');
  incoming.resume();
}
