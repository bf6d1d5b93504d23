/**
 * @module Bounds on the server's connections, each one of Node's own, so that clients that send nothing or
 * send slowly cannot hold the process's sockets for ever. A response being written is never timed out.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
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
  server.on('clientError', answerClientError);
}

/** What Node's parser and timeouts refuse before the app sees a request: status, reason phrase, message. */
function refusalOf(error: NodeJS.ErrnoException): [number, string, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [408, 'Request Timeout', 'the request did not arrive whole within the time the server allows'];
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'Request Header Fields Too Large', 'the request\u2019s headers are larger than the server accepts'];
  }
  return [400, 'Bad Request', 'the request is not valid HTTP/1.1'];
}

/**
 * In place of Node's bare answer (the same statuses, no body), the error shape every other refusal has;
 * then the connection is closed, as Node's own handler does. A socket the client already closed, or one
 * no longer writable, is let go.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = refusalOf(error);
  const body = JSON.stringify({ error: { code: status, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
