/**
 * @module Sends resources in the negotiated format: status, `Content-Type`, `Vary`, an RFC 8288 `Link` header,
 * deprecations, and an `ETag` with `If-None-Match` → 304. Headers stay a plain record handed to the response
 * as it is: no Web `Headers` object is built per response.
 */
import { hash } from 'node:crypto';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Format, ListingView, PageContext, SessionView } from '../formats/format.js';
import type { Control, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import type { Uris } from '../hypermedia/uris.js';
import { sessionControls } from '../renderers/root.js';
import { announceDeprecations, type HeaderRecord } from './deprecation.js';
import type { AppEnv } from './env.js';
import { isSafe } from './methods.js';
import { contextHeadersSet } from './middleware/context-headers.js';
import { formatFor } from './middleware/negotiate.js';
import { securedResponse, securityHeaders } from './middleware/security-headers.js';
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
  /**
   * The answer cannot be fetched again (a new token's secret): a browser is shown it rather than sent on
   * after the write, and no cache keeps it (`Cache-Control: no-store`).
   */
  showOnce?: boolean;
  /**
   * The resource is the same object on every request and never changes (the root as an anonymous caller
   * sees it): its bytes and ETag in each format are computed once.
   */
  constant?: boolean;
  /** The resource is a page of a listing: how a page shows its search and sortable columns. */
  listing?: ListingView;
  /** After a write, the documents it made stale: `Link: <…>; rel="invalidates"` (`renderers/invalidations.ts`). */
  invalidates?: readonly string[];
}

/**
 * The bytes of constant resources, per format, encoded once: memoized, kept for its figure in
 * docs/performance.md. As bytes, not text, they are neither measured nor encoded again per response.
 */
const constantBodies = new WeakMap<Resource, Map<Format, { body: Uint8Array<ArrayBuffer>; etag: string }>>();

export function send(c: Context<AppEnv>, resource: Resource, options: SendOptions = {}): Response {
  const format = formatFor(c, resource.kind);
  if (format.redirectAfterWrite && !isSafe(c.req.method) && !options.showOnce) {
    const target = options.headers?.Location ?? resource.links.find((l) => l.rel === 'self')?.href ?? '/';
    return seeOther(c, target);
  }
  const { body, etag } = options.constant
    ? constantBytes(c, resource, format)
    : bytesOf(c, resource, format, options.listing);
  const headers: HeaderRecord = { ...options.headers, 'Content-Type': format.contentType, Vary: VARY, ETag: etag };
  if (options.showOnce) headers['Cache-Control'] = 'no-store';
  setLinkHeader(headers, resource.links, options.invalidates);
  announceDeprecations(headers, c.get('deprecations'), resource);
  const method = c.req.method;
  if ((method === 'GET' || method === 'HEAD') && etagMatches(c.req.header('if-none-match'), etag)) {
    delete headers['Content-Type'];
    return respond(c, null, 304, headers);
  }
  return respond(c, body, options.status ?? 200, headers);
}

function bytesOf(c: Context<AppEnv>, resource: Resource, format: Format, listing?: ListingView) {
  const page = format.drawsPages ? pageContext(c) : undefined;
  const body = format.resource(resource, page && listing ? { ...page, listing } : page);
  return { body, etag: etagOf(resource.version, body) };
}

function constantBytes(c: Context<AppEnv>, resource: Resource, format: Format) {
  let byFormat = constantBodies.get(resource);
  if (!byFormat) {
    byFormat = new Map();
    constantBodies.set(resource, byFormat);
  }
  let bytes = byFormat.get(format);
  if (!bytes) {
    const { body, etag } = bytesOf(c, resource, format);
    bytes = { body: new TextEncoder().encode(body), etag };
    byFormat.set(format, bytes);
  }
  return bytes;
}

/**
 * A successful create: 201 with the new resource at `uri` (`Location`), its body that resource
 * (`Content-Location`, which lets a client cache it there), and the documents the write made stale.
 */
export function sendCreated(
  c: Context<AppEnv>,
  resource: Resource,
  uri: string,
  invalidates: readonly string[],
): Response {
  return send(c, resource, { status: 201, headers: { Location: uri, 'Content-Location': uri }, invalidates });
}

/**
 * A successful DELETE: 204, with a `collection` link saying where to go next (a browser is sent there),
 * and the documents the deletion made stale.
 */
export function sendDeleted(c: Context<AppEnv>, next: string, invalidates?: readonly string[]): Response {
  if (c.get('format').redirectAfterWrite) return seeOther(c, next);
  const links: Link[] = [{ rel: 'collection', href: next }];
  const headers: HeaderRecord = {};
  setLinkHeader(headers, links, invalidates);
  announceDeprecations(headers, c.get('deprecations'), { links, controls: [] });
  return respond(c, null, 204, headers);
}

/**
 * Where the document is shown, for formats that draw a whole page: the way home, and who is signed in
 * with the session controls the policy allows them (the same ones the root offers), for the header of
 * every page. `uris` stands in when an error came before the request's own were set.
 */
export function pageContext(c: Context<AppEnv>, uris?: Uris): PageContext {
  const home = (c.get('uris') ?? uris)?.root() ?? '/';
  const ctx = c.get('ctx');
  if (!ctx) return { home };
  if (ctx.caller.kind === 'anonymous') return { home, session: anonymousSession(ctx) };
  const session: SessionView = { controls: sessionControls(ctx) };
  if (ctx.caller.kind === 'user') session.user = { name: ctx.caller.name, href: ctx.uris.user(ctx.caller.id) };
  return { home, session };
}

const anonymousSessions = new WeakMap<Uris, SessionView>();

/**
 * What every anonymous caller's page header shows (the sign-in form), the same object on every request
 * of an app (one `Uris`, one policy): frozen, so that a format may draw it once (the HTML view does).
 * Memoized together with that drawing, and kept for its figure in docs/performance.md.
 */
function anonymousSession(ctx: AppEnv['Variables']['ctx']): SessionView {
  let session = anonymousSessions.get(ctx.uris);
  if (!session) {
    session = Object.freeze({ controls: Object.freeze(sessionControls(ctx)) as Control[] });
    anonymousSessions.set(ctx.uris, session);
  }
  return session;
}

function seeOther(c: Context<AppEnv>, location: string): Response {
  return respond(c, null, 303, { Location: location });
}

/**
 * The response, with the security headers. Headers set on the context along the way (cookies, rate-limit
 * state) are merged in by Hono when there are any; otherwise the record goes to the response untouched.
 */
function respond(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
  status: number,
  headers: HeaderRecord,
): Response {
  for (const name in securityHeaders) headers[name] ??= securityHeaders[name] as string;
  if (contextHeadersSet(c)) return c.newResponse(body, status as 200, headers);
  return securedResponse(new Response(body, { status, headers }));
}

/**
 * Flushes to the socket in chunks of at least this many bytes: a format writes a group of members at a
 * time, and a group smaller than this (few fields) waits for the next rather than costing a write.
 */
const CHUNK = 64 * 1024;

/**
 * Chunks written ahead of the socket: while the client takes one, the next few are made (and while the
 * next batch comes from the database, the socket takes those). With one, the server sat idle whenever
 * the socket was full. At most this many chunks (a few hundred KB) wait in memory per stream.
 */
const CHUNKS_AHEAD = 4;

/**
 * Sends a collection as it is read. The first chunk is produced before the response starts, so a query
 * that fails still gets a proper error response; HEAD never opens the cursor at all.
 */
export async function sendStream(c: Context<AppEnv>, stream: ResourceStream): Promise<Response> {
  const format = formatFor(c, stream.kind);
  const headers: HeaderRecord = { 'Content-Type': format.contentType, Vary: VARY };
  setLinkHeader(headers, stream.links);
  announceDeprecations(headers, c.get('deprecations'), { links: stream.links, controls: stream.controls });
  if (c.req.method === 'HEAD') return respond(c, null, 200, headers);
  const chunks = format.stream(stream)[Symbol.asyncIterator]();
  let pending = await chunks.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Each chunk in its own turn of the event loop: a reader as fast as the server never keeps it from
        // reading other requests (with PGlite nothing else would make it wait).
        await new Promise((resolve) => setImmediate(resolve));
        // Each piece encoded as it comes, the bytes joined: joining the pieces' text first would make a string
        // that may pass V8's large-object size (see `groupsOf`).
        const encoded: Uint8Array[] = [];
        let size = 0;
        while (!pending.done && size < CHUNK) {
          const bytes = encoder.encode(pending.value);
          encoded.push(bytes);
          size += bytes.length;
          pending = await chunks.next();
        }
        const [only] = encoded;
        if (size > 0) controller.enqueue(encoded.length === 1 && only ? only : Buffer.concat(encoded));
        if (pending.done) controller.close();
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    new CountQueuingStrategy({ highWaterMark: CHUNKS_AHEAD }),
  );
  return respond(c, body, 200, headers);
}

/**
 * An event stream's headers: never stored by a cache, never held back by a buffering proxy
 * (`X-Accel-Buffering: no`, which nginx honours).
 */
const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
  Vary: VARY,
};

/** The headers an event stream would be sent with, alone: the answer to HEAD. */
export function sendEventStreamHead(c: Context<AppEnv>): Response {
  return respond(c, null, 200, { ...EVENT_STREAM_HEADERS });
}

/**
 * An event stream written by `write` through Hono's `streamSSE`, each write awaiting the client: a client
 * that stops reading holds the writer, not a growing buffer. The stream ends when `write` returns.
 */
export function sendEventStream(c: Context<AppEnv>, write: (stream: SSEStreamingApi) => Promise<void>): Response {
  const response = streamSSE(c, write);
  for (const [name, value] of Object.entries(EVENT_STREAM_HEADERS)) response.headers.set(name, value);
  // Framing and the connection are the server's to decide, as for every other response.
  response.headers.delete('Transfer-Encoding');
  response.headers.delete('Connection');
  return response;
}

/**
 * Strong ETag: a digest of these exact bytes, preceded for stored resources by their version, which is
 * what `If-Match` compares.
 */
export function etagOf(version: number | undefined, body: string): string {
  const digest = hash('sha256', body, 'base64url').slice(0, 16);
  return version === undefined ? `"${digest}"` : `"${version}-${digest}"`;
}

function setLinkHeader(headers: HeaderRecord, links: Link[], invalidates: readonly string[] = []): void {
  let value = '';
  for (const link of links) {
    if (link.templated) continue;
    value += `${value ? ', ' : ''}<${link.href}>; rel="${link.rel}"`;
  }
  for (const href of invalidates) value += `${value ? ', ' : ''}<${href}>; rel="invalidates"`;
  if (value) headers.Link = value;
}
