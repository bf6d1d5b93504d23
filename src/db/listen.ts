/**
 * @module PostgreSQL LISTEN on a connection of its own, kept up for the life of the process. A listener
 * hears `lost` whenever the connection drops (notifications sent meanwhile are gone for good) and `ready`
 * once it listens again; until then it must trust nothing it learned from notifications.
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

/** Waits between attempts to listen again, up to a second, so that an outage is not a busy loop. */
const RETRY_MS = [100, 250, 500, 1000];

/**
 * How often the idle listening connection runs a statement. An idle session hears nothing from its server:
 * a statement makes a primary that was turned read-only (fenced in a failover) report so, on which the
 * driver closes the session (target_session_attrs) and this module listens again, on the new primary.
 */
const HEARTBEAT_MS = 2_000;

/** The listening connection's `application_name`, so that `pg_stat_activity` tells it from the pool's. */
export const LISTENING_APPLICATION_NAME = 'catalogue listen';

export interface Listening {
  listen(channel: string, listener: ChannelListener): void;
  close(): Promise<void>;
}

export function listenOnPostgres(url: string): Listening {
  const channels = new Map<string, Set<ChannelListener>>();
  let closed = false;
  let connected = false;
  let connection: Promise<void> | undefined;
  const each = (f: (listener: ChannelListener) => void) => {
    for (const listeners of channels.values()) for (const listener of listeners) f(listener);
  };
  const options = {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    connection: { application_name: LISTENING_APPLICATION_NAME },
    // The driver calls this for every notification on its connections; its types leave it out.
    onnotify(channel: string, payload: string) {
      for (const listener of channels.get(channel) ?? []) listener.notified(payload);
    },
    onclose() {
      if (!connected) return;
      connected = false;
      each((listener) => listener.lost());
      if (!closed) connection = keepListening();
    },
  };
  const client = postgres(url, options as postgres.Options<Record<string, never>>);
  const heartbeat = setInterval(() => {
    // A failure closes the connection, which `onclose` handles.
    if (connected) client`select 1`.catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();

  /** LISTENs on every channel on a fresh connection, retrying until it succeeds or the process closes. */
  async function keepListening(): Promise<void> {
    for (let attempt = 0; !closed; attempt++) {
      try {
        for (const channel of channels.keys()) await client.unsafe(`LISTEN ${quoted(channel)}`);
        connected = true;
        each((listener) => listener.ready());
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
  }

  return {
    listen(channel, listener) {
      const listeners = channels.get(channel) ?? new Set();
      channels.set(channel, listeners);
      listeners.add(listener);
      if (connected) {
        // The connection listens on other channels already: add this one to it.
        client.unsafe(`LISTEN ${quoted(channel)}`).then(
          () => listener.ready(),
          () => {},
        );
      } else {
        connection ??= keepListening();
      }
    },
    async close() {
      closed = true;
      clearInterval(heartbeat);
      await client.end({ timeout: 1 });
      await connection;
    },
  };
}

function quoted(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
}
