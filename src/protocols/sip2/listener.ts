/**
 * @module The SIP2 listener: a TCP server (`CATALOGUE_SIP2_PORT`) whose every connection is one terminal's
 * (`connection.ts`), with the policy the HTTP app asks. Closing it stops accepting, answers the messages
 * under way, then ends every connection; one that will not end is destroyed after a deadline.
 */
import { createServer, type Server } from 'node:net';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../domain/clock.js';
import type { PinLockout } from '../../domain/pin.js';
import { type AccessPolicy, createPolicy } from '../../domain/policy.js';
import type { Logger } from '../../log.js';
import { Connection } from './connection.js';

export interface Sip2Options {
  database: Database;
  clock: Clock;
  /** The library's rules, as the HTTP app is given them. */
  access: AccessPolicy;
  currency: string;
  timeZone: string;
  pins: PinLockout;
  log: Logger;
  port: number;
  host: string;
  /** A terminal that sends nothing for this long is disconnected. */
  idleSeconds: number;
}

export interface Sip2Listener {
  /** The port listened on (the one chosen, when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

/** Connections held at once; more are closed as they open (a self-check fleet is tens, not thousands). */
const MAX_CONNECTIONS = 2048;
/** How long closing waits for messages under way before it destroys their connections. */
const CLOSE_DEADLINE_MS = 5000;

/** Starts listening; resolves once the port is bound (rejects when it cannot be). */
export async function startSip2Listener(options: Sip2Options): Promise<Sip2Listener> {
  const services = {
    db: options.database.db,
    clock: options.clock,
    policy: createPolicy(options.access, options.clock, options.currency),
    timeZone: options.timeZone,
    pins: options.pins,
    log: options.log,
  };
  const connections = new Set<Connection>();
  const server: Server = createServer((socket) => {
    const connection = new Connection(socket, services, options.idleSeconds * 1000);
    connections.add(connection);
    socket.once('close', () => connections.delete(connection));
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A failure after listening (none is expected) is logged, never thrown at the process.
  server.on('error', (error) => options.log.error('sip2 listener', { error: error.message }));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.log.info('sip2 listening', { port });
  return {
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const deadline = setTimeout(() => {
        for (const connection of connections) connection.destroy();
      }, CLOSE_DEADLINE_MS);
      deadline.unref();
      await Promise.all([...connections].map((connection) => connection.close()));
      await closed;
      clearTimeout(deadline);
    },
  };
}
