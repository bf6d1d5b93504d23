/**
 * Connections, as a client or an attacker holds them: one that sends nothing, or too slowly, is closed in a
 * bounded time; a process holds a bounded number; an answer given before the body arrived says
 * `Connection: close` and closes cleanly; two `Host` headers are a 400. Event streams, MCP and a slow
 * reader of a long stream are not idle, and outlive every timeout. The server runs with limits of seconds.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, type RunningServer, startServer } from '../support/server.js';
import { SseReader } from '../support/sse.js';

const IDLE_SECONDS = 1;
const HEADERS_SECONDS = 2;
const REQUEST_SECONDS = 3;
const MAX_CONNECTIONS = 40;
/** Longer than every timeout above: an event stream is silent for that long between keep-alives. */
const STREAM_KEEPALIVE_SECONDS = 10;
/** Node looks for expired requests once a second; a closing socket takes a moment more. */
const SLACK_MS = 1_500;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    books: 20_000,
    env: {
      CATALOGUE_RATE_LIMITS: 'off',
      CATALOGUE_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
      CATALOGUE_HEADERS_TIMEOUT_SECONDS: String(HEADERS_SECONDS),
      CATALOGUE_REQUEST_TIMEOUT_SECONDS: String(REQUEST_SECONDS),
      CATALOGUE_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      CATALOGUE_CHANGES_KEEPALIVE_SECONDS: String(STREAM_KEEPALIVE_SECONDS),
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** A raw TCP connection to the server: what it received, and when and how it ended. */
interface Connection {
  socket: Socket;
  received(): string;
  /** Milliseconds from connecting to the server closing it, and the socket error seen on the way if any. */
  closed: Promise<{ afterMs: number; error: string | undefined }>;
}

function open(): Promise<Connection> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let error: string | undefined;
    const started = performance.now();
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    const closed = new Promise<{ afterMs: number; error: string | undefined }>((done) => {
      socket.on('close', () => done({ afterMs: performance.now() - started, error }));
    });
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    socket.once('error', reject);
  });
}

/** How the connection ended, or `still open` after `ms`. */
async function endWithin(connection: Connection, ms: number) {
  const timeout = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms));
  return Promise.race([connection.closed, timeout]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `text` a byte every `everyMs` until the socket closes or the text is sent. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

/** The status line and headers of the first response in `text`, header names in lower case. */
function head(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [top = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = top.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('connections that send nothing, or too slowly', () => {
  it('a connection that never sends a byte is closed after the idle timeout', async () => {
    const connection = await open();
    const end = await endWithin(connection, IDLE_SECONDS * 1000 + 4_000);
    expect(end).not.toBe('still open');
    expect((end as { afterMs: number }).afterMs).toBeGreaterThan(IDLE_SECONDS * 1000 - 100);
  });

  it('a connection kept open after its answer is closed after the idle timeout', async () => {
    const connection = await open();
    connection.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const end = await endWithin(connection, IDLE_SECONDS * 1000 + 4_000);
    expect(end).not.toBe('still open');
    expect(head(connection.received()).status).toBe(200);
  });

  it('headers sent a byte every 200 ms are cut off by the headers timeout, whatever the traffic', async () => {
    const connection = await open();
    void trickle(connection.socket, `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}`, 200);
    const end = await endWithin(connection, HEADERS_SECONDS * 1000 + SLACK_MS + 2_000);
    expect(end).not.toBe('still open');
    expect((end as { afterMs: number }).afterMs).toBeLessThan(HEADERS_SECONDS * 1000 + SLACK_MS);
    const answer = head(connection.received());
    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toMatch(/^\{"error":\{"code":408,"message":"[^"]+"\}\}$/);
  });

  it('a request that is not HTTP, or whose headers are too large, is refused in the error shape', async () => {
    for (const [text, status] of [
      ['NONSENSE\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      const connection = await open();
      connection.socket.write(text);
      expect(await endWithin(connection, 2_000)).not.toBe('still open');
      const answer = head(connection.received());
      expect(answer.status).toBe(status);
      expect(answer.body).toMatch(new RegExp(`^\\{"error":\\{"code":${status},"message":"[^"]+"\\}\\}$`));
    }
  });

  it('a body sent a byte every 200 ms is cut off by the request timeout, and nothing is written', async () => {
    const connection = await open();
    const body = JSON.stringify({ title: `Trickled ${'x'.repeat(100)}`, publication_year: 2000, author_id: 1 });
    connection.socket.write(
      `POST /books HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    void trickle(connection.socket, body, 200);
    const end = await endWithin(connection, REQUEST_SECONDS * 1000 + SLACK_MS + 2_000);
    expect(end).not.toBe('still open');
    expect((end as { afterMs: number }).afterMs).toBeLessThan(REQUEST_SECONDS * 1000 + SLACK_MS);
    expect(head(connection.received()).status).toBe(408);
    const search = await call(server, ADMIN_TOKEN, 'GET', '/books?query=Trickled');
    expect(await search.json()).toEqual([]);
  });

  it(`holds at most ${MAX_CONNECTIONS} connections; once idle ones are closed, /health answers again`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, open));
    const oneMore = await open();
    const end = await endWithin(oneMore, 500);
    expect(end).not.toBe('still open');
    expect(oneMore.received()).toBe('');
    await Promise.all(held.map((connection) => endWithin(connection, IDLE_SECONDS * 1000 + 4_000)));
    expect((await fetch(new URL('/health', server.url))).status).toBe(200);
    for (const connection of held) connection.socket.destroy();
  });
});

describe('connections that are not idle', () => {
  it('an event stream silent for longer than every timeout stays open and delivers the next change', async () => {
    const response = await fetch(new URL('/changes', server.url), {
      headers: { Accept: 'text/event-stream', Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    const stream = new SseReader(response);
    try {
      await sleep((REQUEST_SECONDS + 1) * 1000);
      const created = await call(server, ADMIN_TOKEN, 'POST', '/authors', { name: 'Outlasting Author' });
      expect(created.status).toBe(201);
      const [event] = await stream.events(1);
      expect(event?.data).toContain('/authors/');
    } finally {
      await stream.cancel();
    }
  });

  it('an MCP client goes on working after its connections were closed for idling', async () => {
    const client = new Client({ name: 'catalogue-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url)));
    try {
      expect((await client.callTool({ name: 'start', arguments: {} })).isError).toBeFalsy();
      await sleep((IDLE_SECONDS + 1) * 1000);
      expect((await client.callTool({ name: 'start', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('a reader of the whole catalogue that pauses for longer than every timeout still gets all of it', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(new URL('/books', server.url), { headers: { Accept: 'application/json' }, agent: false });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let paused = false;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (paused) return;
          paused = true;
          res.pause();
          setTimeout(() => res.resume(), (REQUEST_SECONDS + 2) * 1000);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect((JSON.parse(text) as unknown[]).length).toBeGreaterThanOrEqual(20_000);
  });
});

describe('answers given before the body arrived', () => {
  const bigBody = 'x'.repeat(1024 * 1024);

  /** The statuses of the answers on one connection, in order. */
  const statuses = (connection: Connection) =>
    [...connection.received().matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));

  it.each([
    ['declared', `Content-Length: ${bigBody.length}\r\n\r\n${bigBody}`],
    ['chunked', `Transfer-Encoding: chunked\r\n\r\n${bigBody.length.toString(16)}\r\n${bigBody}\r\n0\r\n\r\n`],
  ])('after a 413 for a 1 MB body (%s), the next request on the connection is answered (10 of 10)', async (_, rest) => {
    for (let i = 0; i < 10; i++) {
      const connection = await open();
      connection.socket.write(`POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${rest}`);
      connection.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      const end = await endWithin(connection, 5_000);
      expect(end).not.toBe('still open');
      expect((end as { error: string | undefined }).error).toBeUndefined();
      expect(statuses(connection)).toEqual([413, 200]);
      expect(head(connection.received()).headers.connection).toBe('keep-alive');
    }
  });

  it('ten 1 MB posts in a row through one client are each answered 413, and the client goes on', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await fetch(new URL('/books', server.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN_TOKEN}` },
        body: bigBody,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: { code: 413, message: expect.stringContaining('16384') } });
    }
    expect((await fetch(new URL('/health', server.url))).status).toBe(200);
  });

  it.each([
    ['401 (anonymous)', 401, 'application/json', ''],
    ['415 (not JSON)', 415, 'text/plain', `Authorization: Bearer ${ADMIN_TOKEN}\r\n`],
  ])(
    'a %s before the body arrived: the rest of the body is discarded, the next request answered',
    async (_, status, type, authorization) => {
      const connection = await open();
      const body = JSON.stringify({ title: 'x'.repeat(10_000) });
      connection.socket.write(
        `POST /books HTTP/1.1\r\nHost: localhost\r\n${authorization}Content-Type: ${type}\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 100)}`,
      );
      await sleep(100);
      expect(statuses(connection)).toEqual([status]);
      connection.socket.write(body.slice(100));
      connection.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      const end = await endWithin(connection, 3_000);
      expect(end).not.toBe('still open');
      expect(statuses(connection)).toEqual([status, 200]);
    },
  );

  it('an early answer to a body that did arrive whole keeps the connection for the next request', async () => {
    const connection = await open();
    const body = JSON.stringify({ title: 'x'.repeat(1000) });
    connection.socket.write(
      `POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    await sleep(200);
    connection.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await endWithin(connection, 3_000);
    expect(statuses(connection)).toEqual([401, 200]);
  });
});

describe('the Host header', () => {
  it('two Host headers are a 400 in the error shape (RFC 9112 §3.2); one is answered', async () => {
    for (const path of ['/books/1', '/nowhere']) {
      const connection = await open();
      connection.socket.write(
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nHost: elsewhere.example\r\nAccept: application/json\r\n\r\n`,
      );
      await sleep(300);
      const answer = head(connection.received());
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/"error":\{"code":400,"message":"[^"]*Host/);
      connection.socket.destroy();
    }
    const single = await open();
    single.socket.write('GET /books/1 HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n');
    await sleep(300);
    expect(head(single.received()).status).toBe(200);
    single.socket.destroy();
  });
});
