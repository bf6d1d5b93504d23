/**
 * The change feed across two server processes on one PostgreSQL database: a transaction that holds event
 * numbers makes later writers wait, so no reader ever sees a number after a smaller one commits; writers
 * hammering both processes at once are seen by a polling reader and by a live stream on the other process
 * (woken by NOTIFY alone: its keep-alive is minutes away) exactly once each, in commit order; and streams
 * abandoned by their clients are freed, so the process keeps serving.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../support/catalogue.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import { type AuthorDocument, type ChangesPageDocument, linkOf } from '../support/documents.js';
import { millisecondsUntil } from '../support/poll.js';
import { call, created, type RunningServer, startServer } from '../support/server.js';
import { SseReader } from '../support/sse.js';

const ADMIN_TOKEN = 'change-feed-admin-token-0123456789';

interface Event {
  id: number;
  type: string;
  links: { rel: string; href: string }[];
}

describe('the change feed on two server processes', () => {
  let shared: PostgresDatabase;
  let direct: postgres.Sql;
  let a: RunningServer;
  let b: RunningServer;

  const get = (server: RunningServer, path: string) => call(server, ADMIN_TOKEN, 'GET', path);
  const stream = (server: RunningServer, path: string, signal?: AbortSignal) =>
    fetch(new URL(path, server.url), {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, Accept: 'text/event-stream' },
      ...(signal && { signal }),
    });

  /** Follows `next` from `href` until an empty page; the events and where to resume. */
  async function poll(server: RunningServer, href: string): Promise<{ events: Event[]; resume: string }> {
    const events: Event[] = [];
    for (let at = href; ; ) {
      const page = await json<ChangesPageDocument>(await get(server, at));
      events.push(...page.data);
      const next = linkOf(page, 'next').href;
      if (page.data.length === 0) return { events, resume: next };
      at = next;
    }
  }

  beforeAll(async () => {
    shared = await createPostgresDatabase(process.env.DATABASE_URL as string, 'change_feed');
    const options = {
      database: { env: { DATABASE_URL: shared.url } },
      env: {
        CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
        CATALOGUE_SEED: 'none',
        CATALOGUE_RATE_LIMITS: 'off',
        CATALOGUE_CHANGES_KEEPALIVE_SECONDS: '300',
        CATALOGUE_CHANGES_MAX_STREAMS: '4',
      },
    };
    a = await startServer(options);
    b = await startServer(options);
    direct = postgres(shared.url, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await direct?.end();
    await shared?.drop();
  });

  it('makes a writer wait while an earlier transaction holds event numbers, so readers see both in order', async () => {
    const { resume } = await poll(b, '/changes');
    let first: number | undefined;
    let writing: Promise<Response> | undefined;
    // Committed when the callback returns, rolled back if it throws.
    await direct.begin(async (tx) => {
      const [row] = await tx`insert into authors (name) values ('Held Open') returning id`;
      first = row?.id;
      // Through the API, on the other process: it must wait for the open transaction to end.
      writing = call(a, ADMIN_TOKEN, 'POST', '/authors', { name: 'Waits Its Turn' });
      const waits = await millisecondsUntil(async () => {
        const [locks] = await direct`
          select count(*)::integer as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`;
        return (locks?.n ?? 0) > 0;
      }, 4_000);
      expect(waits).toBeLessThan(Number.POSITIVE_INFINITY);
      expect((await poll(b, resume)).events).toEqual([]);
    });
    const second = await created<AuthorDocument>(await (writing as Promise<Response>), 'author');
    const { events } = await poll(b, resume);
    expect(events.map((e) => e.links[0]?.href)).toEqual([`/authors/${first}`, `/authors/${second.id}`]);
  });

  it('shows concurrent writers on both processes to a poller and to a stream on the other, each once, in order', async () => {
    const { resume } = await poll(a, '/changes');
    const sse = new SseReader(await stream(b, resume));
    const writers = 24;
    // Each writer creates an author and renames them: the feed must show every pair, created first.
    const writes = Array.from({ length: writers }, async (_, i) => {
      const server = i % 2 === 0 ? a : b;
      const author = await created<AuthorDocument>(
        await call(server, ADMIN_TOKEN, 'POST', '/authors', { name: `Writer ${i}` }),
        'author',
      );
      const renamed = await call(i % 2 === 0 ? b : a, ADMIN_TOKEN, 'PATCH', `/authors/${author.id}`, {
        name: `Writer ${i} Renamed`,
      });
      expect(renamed.status).toBe(200);
      return author.id as number;
    });
    // A poller reading all the while, following its own next links.
    const polled: Event[] = [];
    let done = false;
    const polling = (async () => {
      let at = resume;
      for (;;) {
        const finished = done;
        const { events, resume: next } = await poll(a, at);
        polled.push(...events);
        at = next;
        if (finished) return;
      }
    })();
    const ids = await Promise.all(writes);
    done = true;
    await polling;
    const streamed = (await sse.events(writers * 2)).map((frame) => JSON.parse(frame.data) as Event);
    await sse.cancel();

    for (const seen of [polled, streamed]) {
      expect(seen).toHaveLength(writers * 2);
      const numbers = seen.map((e) => e.id);
      expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
      expect(new Set(numbers).size).toBe(numbers.length);
      for (const id of ids) {
        const mine = seen.filter((e) => e.links[0]?.href === `/authors/${id}`).map((e) => e.type);
        expect(mine).toEqual(['author.created', 'author.updated']);
      }
    }
    expect(streamed).toEqual(polled);
  });

  it('frees streams whose clients went away: the process keeps serving new ones', async () => {
    const controllers = [1, 2, 3, 4].map(() => new AbortController());
    const opened = await Promise.all(controllers.map((c) => stream(a, '/changes', c.signal)));
    expect(opened.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const refused = await stream(a, '/changes');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    await refused.body?.cancel();
    for (const controller of controllers) controller.abort();
    // Each stream ends once its socket closes; until then a new one may still be refused.
    const reopened: Response[] = [];
    const freed = await millisecondsUntil(async () => {
      const response = await stream(a, '/changes', AbortSignal.timeout(60_000));
      if (response.status === 200) reopened.push(response);
      else await response.body?.cancel();
      return reopened.length === 4;
    }, 20_000);
    expect(freed).toBeLessThan(Number.POSITIVE_INFINITY);
    expect((await fetch(new URL('/health', a.url))).status).toBe(200);
    for (const response of reopened) await response.body?.cancel();
  });
});
