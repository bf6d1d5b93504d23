/**
 * @module PostgreSQL LISTEN through postgres.js's own `listen`, which keeps one connection, listens again
 * on every channel when it drops and says so (`onlisten`). Added here, because its `listen` offers neither:
 * `lost` when that connection drops (notifications sent meanwhile are gone for good), and a statement now
 * and then on the idle connection, so that a primary turned read-only is noticed and the connection moves.
 */
import postgres from 'postgres';
import { CONNECT_TIMEOUT_SECONDS } from '../domain/limits.js';

/** What a subscriber to a channel is told. */
export interface ChannelListener {
  /** A notification on the channel, with its payload. */
  notified(payload: string): void;
  /** Listening (again): notifications from now on arrive. */
  ready(): void;
  /** The listening connection is gone: notifications may have been missed, and none arrive until `ready`. */
  lost(): void;
}

/** Seconds between attempts to connect again, by failures in a row: an outage is not a busy loop. */
const RETRY_SECONDS = [0.1, 0.25, 0.5, 1];

/**
 * How often the idle listening connection runs a statement. An idle session hears nothing from its server:
 * a statement makes a primary that was turned read-only (fenced in a failover) report so, on which the
 * driver closes the session (target_session_attrs, patches/README.md) and listens again, on the new primary.
 */
const HEARTBEAT_MS = 2_000;

/** The channel the heartbeat listens on and leaves at once; no notification is ever sent on it. */
const HEARTBEAT_CHANNEL = 'catalogue_listen_heartbeat';

/** The listening connection's `application_name`, so that `pg_stat_activity` tells it from the pool's. */
export const LISTENING_APPLICATION_NAME = 'catalogue listen';

export interface Listening {
  listen(channel: string, listener: ChannelListener): void;
  close(): Promise<void>;
}

interface Subscription {
  listener: ChannelListener;
  /** Between its `ready` and the next drop. */
  listening: boolean;
}

export function listenOnPostgres(url: string): Listening {
  const subscriptions = new Set<Subscription>();
  let closed = false;
  const dropped = () => {
    for (const subscription of subscriptions) {
      if (!subscription.listening) continue;
      subscription.listening = false;
      subscription.listener.lost();
    }
  };
  // Only postgres.js's `listen` connects with this client: its listening connection takes these options.
  const client = postgres(url, {
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    connection: { application_name: LISTENING_APPLICATION_NAME },
    // postgres.js keeps the listening connection's `onclose` to itself (to listen again); the wait it asks
    // for before connecting again is the one call it makes each time that connection closes.
    backoff(failures) {
      dropped();
      return RETRY_SECONDS[Math.min(failures, RETRY_SECONDS.length - 1)] as number;
    },
  });

  const heartbeat = startHeartbeat(client, () => [...subscriptions].some((subscription) => subscription.listening));

  return {
    listen(channel, listener) {
      if (closed) return;
      const subscription: Subscription = { listener, listening: false };
      subscriptions.add(subscription);
      const ready = () => {
        subscription.listening = true;
        listener.ready();
      };
      // A first LISTEN that fails is made again by postgres.js when the connection it tried closes.
      client.listen(channel, (payload) => listener.notified(payload), ready).catch(() => {});
    },
    async close() {
      closed = true;
      clearInterval(heartbeat);
      await client.end({ timeout: 1 });
    },
  };
}

/**
 * Every `HEARTBEAT_MS` while `listening()`, LISTEN and UNLISTEN on the heartbeat channel: postgres.js's
 * `listen` runs its statements on the listening connection, and offers no other way onto it. A LISTEN that
 * failed (the connection dropped meanwhile) leaves its listener to postgres.js, which listens for it again
 * on the next connection, and the channel would then send nothing more: the next beat uses a new one.
 */
function startHeartbeat(client: postgres.Sql, listening: () => boolean): NodeJS.Timeout {
  let beating = false;
  let failures = 0;
  const timer = setInterval(async () => {
    if (beating || !listening()) return;
    beating = true;
    const channel = failures === 0 ? HEARTBEAT_CHANNEL : `${HEARTBEAT_CHANNEL}_${failures}`;
    try {
      const { unlisten } = await client.listen(channel, () => {});
      await unlisten().catch(() => {});
    } catch {
      failures++;
    } finally {
      beating = false;
    }
  }, HEARTBEAT_MS);
  timer.unref();
  return timer;
}
