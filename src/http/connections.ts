/**
 * @module Bounds on the server's connections, each one of Node's own, so that clients that send nothing or
 * send slowly cannot hold the process's sockets for ever. A response being written is never timed out.
 */
import type { Server, ServerOptions } from 'node:http';
import type { ConnectionsConfig } from '../config.js';

/** How often Node looks for requests past their timeouts: its default, 30 s, would double a 30 s bound. */
const CHECK_EVERY_MS = 1_000;

/**
 * What `http.createServer` is given: a request must arrive whole (headers, then body) within its timeouts,
 * counted from its first byte; between requests, a connection is kept for the idle timeout.
 */
export function connectionOptions(config: ConnectionsConfig): ServerOptions {
  return {
    headersTimeout: config.headersSeconds * 1000,
    requestTimeout: config.requestSeconds * 1000,
    keepAliveTimeout: config.idleSeconds * 1000,
    connectionsCheckingInterval: CHECK_EVERY_MS,
  };
}

/** Bounds the connections `server` holds, and how long one may wait before its first request starts. */
export function boundConnections(server: Server, config: ConnectionsConfig): void {
  server.maxConnections = config.maxConnections;
  // Node's request timeouts start at a request's first byte, so a connection that never sends one is
  // closed by a socket timeout instead. Once a request has started, they bound it, and its answer (an event
  // stream, a long listing to a slow reader) may take as long as it takes: no timeout while it is written.
  server.setTimeout(config.idleSeconds * 1000);
  server.on('request', (request) => request.socket.setTimeout(0));
}
