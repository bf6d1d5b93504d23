/**
 * @module Sends resources in the negotiated format: status, `Content-Type`, `Vary`, the links again as an
 * RFC 8288 `Link` header, deprecation notices, and an `ETag` with `If-None-Match` → 304.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Link, Resource, ResourceStream } from '../hypermedia/model.js';
import { announceDeprecations } from './deprecation.js';
import type { AppEnv } from './env.js';
import { etagMatches } from './preconditions.js';

/** Representations depend on the media type asked for and on who asks (controls follow the caller). */
/**
 * What a representation depends on besides its URL: the format asked for, and the caller, whose
 * controls it shows, named by a bearer token or by a browser session's cookie.
 */
export const VARY = 'Accept, Authorization, Cookie';

export interface SendOptions {
  status?: 200 | 201;
  headers?: Record<string, string>;
}

export function send(c: Context<AppEnv>, resource: Resource, options: SendOptions = {}): Response {
  const format = c.get('format');
  // An answer that cannot be fetched again (a new token's secret, `no-store`) is shown, not redirected.
  const showOnce = options.headers?.['Cache-Control']?.includes('no-store') ?? false;
  if (format.redirectAfterWrite && isWrite(c) && !showOnce) {
    const target = options.headers?.Location ?? resource.links.find((l) => l.rel === 'self')?.href ?? '/';
    return seeOther(c, target);
  }
  const body = format.resource(resource, pageContext(c));
  const headers = new Headers(options.headers);
  headers.set('Content-Type', format.contentType);
  headers.set('Vary', VARY);
  setLinkHeader(headers, resource.links);
  announceDeprecations(headers, c.get('deprecations'), resource);
  const etag = etagOf(resource.version, body);
  headers.set('ETag', etag);
  const method = c.req.method;
  if ((method === 'GET' || method === 'HEAD') && etagMatches(c.req.header('if-none-match'), etag)) {
    headers.delete('Content-Type');
    return c.newResponse(null, { status: 304, headers });
  }
  return c.newResponse(body, { status: options.status ?? 200, headers });
}

/**
 * A successful DELETE: 204, with a `collection` link saying where to go next (a browser is sent there).
 */
export function sendDeleted(c: Context<AppEnv>, next: string): Response {
  if (c.get('format').redirectAfterWrite) return seeOther(c, next);
  const links: Link[] = [{ rel: 'collection', href: next }];
  const headers = new Headers();
  setLinkHeader(headers, links);
  announceDeprecations(headers, c.get('deprecations'), { links, controls: [] });
  return c.newResponse(null, { status: 204, headers });
}

/** Where the document is shown, for formats that draw a whole page. */
export function pageContext(c: Context<AppEnv>) {
  return { home: c.get('uris').root() };
}

function isWrite(c: Context<AppEnv>): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method);
}

/** Responses go through the context so that headers set along the way (cookies) are kept. */
function seeOther(c: Context<AppEnv>, location: string): Response {
  return c.newResponse(null, { status: 303, headers: { Location: location } });
}

/**
 * Flushes to the socket in chunks of at least this many characters: a format writes a batch of members
 * at a time, and a batch smaller than this (few fields) waits for the next rather than costing a write.
 */
const CHUNK = 64 * 1024;

/**
 * Sends a collection as it is read. The first chunk is produced before the response starts, so a query
 * that fails still gets a proper error response; HEAD never opens the cursor at all.
 */
export async function sendStream(c: Context<AppEnv>, stream: ResourceStream): Promise<Response> {
  const format = c.get('format');
  const headers = new Headers({ 'Content-Type': format.contentType, Vary: VARY });
  setLinkHeader(headers, stream.links);
  announceDeprecations(headers, c.get('deprecations'), { links: stream.links, controls: stream.controls });
  if (c.req.method === 'HEAD') return c.newResponse(null, { status: 200, headers });
  const chunks = format.stream(stream)[Symbol.asyncIterator]();
  let pending = await chunks.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Each chunk in its own turn of the event loop: a reader as fast as the server never keeps it from
      // reading other requests (with PGlite nothing else would make it wait).
      await new Promise((resolve) => setImmediate(resolve));
      let text = '';
      while (!pending.done && text.length < CHUNK) {
        text += pending.value;
        pending = await chunks.next();
      }
      if (text) controller.enqueue(encoder.encode(text));
      if (pending.done) controller.close();
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return c.newResponse(body, { status: 200, headers });
}

/**
 * Strong ETag: a digest of these exact bytes, preceded for stored resources by their version, which is
 * what `If-Match` compares.
 */
export function etagOf(version: number | undefined, body: string): string {
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return version === undefined ? `"${digest}"` : `"${version}-${digest}"`;
}

function setLinkHeader(headers: Headers, links: Link[]): void {
  const value = links
    .filter((link) => !link.templated)
    .map((link) => `<${link.href}>; rel="${link.rel}"`)
    .join(', ');
  if (value) headers.set('Link', value);
}
