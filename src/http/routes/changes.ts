/**
 * @module The change feed, `GET /changes`: a page of events after a cursor, or the same events live as
 * server-sent events, resumable by `Last-Event-ID`; what a caller sees is the policy's, applied in SQL.
 */
import type { Context, Hono } from 'hono';
import type { SSEStreamingApi } from 'hono/streaming';
import type { Db } from '../../db/client.js';
import { type FeedRead, readFeed } from '../../db/queries/changes.js';
import { type ChangesQuery, encodeChangeCursor, feedStarts, parseChangesQuery } from '../../domain/change.js';
import { Gone, InvalidInput, ServiceUnavailable } from '../../domain/errors.js';
import { MAX_PER_PAGE } from '../../domain/limits.js';
import type { LoanEventScope } from '../../domain/policy.js';
import { EVENT_STREAM, sseComment, sseEvent, sseRetry } from '../../formats/event-stream.js';
import { preferred } from '../../formats/registry.js';
import type { Resource } from '../../hypermedia/model.js';
import { paths } from '../../hypermedia/uris.js';
import { renderChange, renderChangesPage } from '../../renderers/changes.js';
import type { ChangeStreams, Woken } from '../change-streams.js';
import type { AppEnv } from '../env.js';
import { queryParams } from '../params.js';
import { send, sendEventStream, sendEventStreamHead } from '../respond.js';
import { type Operations, route } from '../route.js';

/** What the feed's routes need beyond the request. */
export interface ChangeFeed {
  streams: ChangeStreams;
  /** Days events are kept, as the first page tells readers. */
  retentionDays: number;
  /** How a stream writes a page of events: `writeEventPage` unless the app was given another. */
  writePage: EventPageWriter;
}

/** An event as a stream sends it: the change as a page lists it, and its cursor (the `id:`). */
export interface StreamedEvent {
  resource: Resource;
  id: string;
}

/** Writes a page of events to an event stream, done once the client has taken it. */
export type EventPageWriter = (sse: SSEStreamingApi, events: readonly StreamedEvent[]) => Promise<void>;

/**
 * A page as one text, one write: with `writeSSE` once per event, streams catching up a backlog deliver
 * fewer events per second by more than the 10% the rule allows (docs/performance.md, "What stays and why").
 */
export const writeEventPage: EventPageWriter = async (sse, events) => {
  let text = '';
  for (const event of events) text += sseEvent(event.resource, event.id);
  await sse.write(text);
};

/** How long an event stream's client waits before reconnecting, in milliseconds (the `retry:` field). */
const RECONNECT_MS = 2_000;
/** Seconds a client refused a stream (the process serves its most) is asked to wait. */
const STREAMS_RETRY_AFTER_SECONDS = 5;

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/changes` */
  changes: {
    GET: {
      summary:
        'The change feed: creates, updates and deletes of books and authors, and loans started and ended, in commit order',
      parameters: [
        {
          name: 'cursor',
          description:
            'Where to continue: an opaque position from a `next` link (or an event stream\u2019s `id:`). ' +
            'Absent: where `from` says. A malformed one is 400; one older than retention, 410.',
          schema: { type: 'string', maxLength: 64 },
        },
        {
          name: 'from',
          description:
            'Where to start without a cursor: `oldest`, the oldest event kept (the default, for mirrors), or ' +
            '`now`, after the newest event (for live views: only what commits from here on). Not with `cursor`; ' +
            'an event stream\u2019s `Last-Event-ID` takes its place on reconnection.',
          schema: { type: 'string', enum: [...feedStarts], default: 'oldest' },
        },
        {
          name: 'per_page',
          description: `Events per page, 1 to ${MAX_PER_PAGE}.`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: MAX_PER_PAGE },
        },
      ],
      alsoProduces: {
        mediaType: EVENT_STREAM,
        description:
          'The same events live as server-sent events: `id:` (a cursor), `event:` (the type), `data:` (the event ' +
          'as a page lists it), `: keep-alive` comments; resume with `Last-Event-ID`.',
      },
      errors: [400, 410, 503],
    },
  },
} satisfies Record<string, Operations>;

export function changeRoutes(app: Hono<AppEnv>, feed: ChangeFeed): void {
  route(app, paths.changes, operations.changes, {
    async GET(c) {
      // Who may read it at all is `policy.read`, asked by the route as for every read of the catalogue.
      const ctx = c.get('ctx');
      const streaming = wantsEventStream(c);
      const query = parseChangesQuery(queryParams(c), streaming ? c.req.header('last-event-id') : undefined);
      if (streaming) return streamChanges(c, feed, query);
      const loans = ctx.policy.loanEvents(ctx.caller);
      const read = await readFrom(c.get('database').db, query, query.perPage, loans, feed);
      const next = encodeChangeCursor(read.events.at(-1)?.id ?? read.after);
      const items = read.events.map((change) => renderChange(change, ctx));
      const facts = {
        cursor: query.cursor,
        from: query.from,
        perPage: query.perPage,
        next,
        horizon: read.horizon,
        retentionDays: feed.retentionDays,
      };
      return send(c, renderChangesPage(items, facts, ctx));
    },
  });
}

/** Whether `Accept` prefers the event stream to the format negotiated for the page. */
function wantsEventStream(c: Context<AppEnv>): boolean {
  const accept = c.req.header('accept');
  if (!accept?.includes(EVENT_STREAM)) return false;
  const stream = { mediaTypes: [EVENT_STREAM] };
  return preferred(accept, [{ mediaTypes: c.get('format').mediaTypes }, stream]) === stream;
}

/** Reads from where the caller asked, refusing a position the feed no longer reaches or never made. */
async function readFrom(
  db: Db,
  start: Pick<ChangesQuery, 'after' | 'from'>,
  limit: number,
  loans: LoanEventScope,
  feed: ChangeFeed,
): Promise<FeedRead> {
  const read = await readFeed(db, { after: start.after, from: start.from, limit, loans });
  if (read.after < read.horizon.prunedThrough) {
    throw new Gone(
      `the cursor is older than the change feed, which keeps ${feed.retentionDays} days of events and now begins ` +
        `at ${read.horizon.beginsAt}; start again from the first page and re-read what you mirror`,
    );
  }
  if (read.after > read.horizon.last) {
    throw new InvalidInput('the cursor is not one this feed made; follow the feed\u2019s links as given', {
      cursor: 'names no position of this feed',
    });
  }
  return read;
}

/**
 * The feed as server-sent events, written through Hono's `streamSSE`. The first read happens before the
 * response starts, so a bad cursor is a proper 400 or 410. Then the stream writes each page, each event
 * awaiting the client (a client that stops reading holds one page, not a growing buffer), reads the next at
 * once while the last read came back full, and only once it has caught up waits (holding no database
 * connection) for a notification or its keep-alive deadline. Each page is read by number after the last
 * event sent: nothing is lost, and nothing is sent twice.
 */
async function streamChanges(c: Context<AppEnv>, feed: ChangeFeed, query: ChangesQuery): Promise<Response> {
  if (c.req.method === 'HEAD') return sendEventStreamHead(c);
  await c.get('rateLimiter')?.spend(c, 'stream');
  const ctx = c.get('ctx');
  // The backlog is read where the request was sent (a standby, when one may answer); once woken by a
  // notification the stream reads on the primary, which has what the notification told of, where a
  // standby might not yet and the stream would wait for its next keep-alive.
  let { db } = c.get('database');
  const loans = ctx.policy.loanEvents(ctx.caller);
  const stop = new AbortController();
  const release = feed.streams.admit(() => stop.abort());
  if (!release) {
    throw new ServiceUnavailable(
      'this process serves as many change streams as it may; try again shortly, or page the feed meanwhile',
      STREAMS_RETRY_AFTER_SECONDS,
    );
  }
  // Noted before each read: a notification after it makes the next wait return at once.
  let seen = feed.streams.generation;
  let first: FeedRead;
  try {
    first = await readFrom(db, query, MAX_PER_PAGE, loans, feed);
  } catch (error) {
    release();
    throw error;
  }
  // The client going away ends the stream whichever notices first: the request's signal, or the server
  // cancelling the body when the socket closes.
  const requestSignal = c.req.raw.signal;
  const end = () => {
    stop.abort();
    release();
    requestSignal.removeEventListener('abort', end);
  };
  requestSignal.addEventListener('abort', end, { once: true });
  const { keepAliveMs } = feed.streams.options;
  return sendEventStream(c, async (sse) => {
    sse.onAbort(end);
    try {
      await sse.write(sseRetry(RECONNECT_MS) + sseComment('catalogue change feed'));
      let after = first.after;
      let pending = first.events;
      // A read that came back full may have left more behind it: the next is made at once, not after a wait.
      let caughtUp = pending.length < MAX_PER_PAGE;
      let deadline = performance.now() + keepAliveMs;
      while (!stop.signal.aborted) {
        if (pending.length > 0) {
          // Done once the client has taken the page before: a stalled client holds two pages besides the
          // socket's buffers.
          await feed.writePage(
            sse,
            pending.map((change) => ({ resource: renderChange(change, ctx), id: encodeChangeCursor(change.id) })),
          );
          after = (pending.at(-1) as { id: number }).id;
          deadline = performance.now() + keepAliveMs;
        }
        let woken: Woken = 'notified';
        if (caughtUp) {
          woken = await feed.streams.wait(Math.max(0, deadline - performance.now()), stop.signal, seen);
          if (woken === 'closed') return;
          if (woken === 'notified') db = feed.streams.database.db;
        }
        seen = feed.streams.generation;
        const read = await readFeed(db, { after, limit: MAX_PER_PAGE, loans });
        // Pruned past this stream's position (it stalled longer than retention): the client must start over.
        if (read.after < read.horizon.prunedThrough) return;
        pending = read.events;
        caughtUp = pending.length < MAX_PER_PAGE;
        if (pending.length === 0 && woken === 'timeout') {
          await sse.write(sseComment('keep-alive'));
          deadline = performance.now() + keepAliveMs;
        }
      }
    } catch {
      // The database failed mid-stream: end it; the client reconnects with Last-Event-ID.
    } finally {
      end();
    }
  });
}
