/**
 * What the service writes to its log when things go wrong outside its control: a client that hangs up in
 * the middle of its upload is logged as that, in one line, not as an unhandled error with a stack; and a
 * failed query's parameters (token hashes, submitted values) never reach the log.
 */
import { connect } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutParameters } from '../src/http/errors.js';
import { ADMIN_TOKEN, type RunningServer, startServer } from './support/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(() => server?.stop());

/** Sends the head of a POST and part of its body, then closes the connection. */
function abandonUpload(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        'POST /books HTTP/1.1\r\nHost: localhost\r\n' +
          `Authorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n` +
          '{"title":"Half a Tit',
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
    });
    socket.on('error', reject);
  });
}

describe('the log', () => {
  it('a client that closes the connection during its upload is one line saying so, with no stack', async () => {
    for (let i = 0; i < 3; i++) await abandonUpload(server.url);
    let lines: string[] = [];
    for (let waited = 0; waited < 5_000; waited += 100) {
      lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('closed the connection'));
      if (lines.length === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: 'info', method: 'POST', path: '/books' });
    expect(server.output()).not.toMatch(/unhandled error|"stack"|Half a Tit/);
    // The service is unharmed.
    expect((await fetch(new URL('/health', server.url))).status).toBe(200);
  });

  it('a failed query is logged without its parameters, keeping what explains it', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    const failed = new DrizzleQueryError('select "id" from "tokens" where "secret_hash" = $1', ['0f1e2d3c4b5a'], cause);
    const logged = JSON.stringify(withoutParameters(failed));
    expect(logged).not.toContain('0f1e2d3c4b5a');
    expect(logged).toContain('select \\"id\\" from \\"tokens\\"');
    expect(logged).toContain('23505');
  });

  it('a form standing for another method, dispatched twice inside, is one request line, as it was sent', async () => {
    const response = await fetch(new URL('/authors/999999', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '_method=DELETE',
    });
    expect(response.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"path":"/authors/999999"'));
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ message: 'request', method: 'POST', status: 404 }),
    ]);
  });
});
