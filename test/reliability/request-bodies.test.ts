/**
 * Every request body is cut off at the limit while it streams in, whatever its content type: ten
 * anonymous 450 MB posts at once (form posts among them, which are counted as they stream like any
 * other body) leave the server's memory where it was, and each is answered 413 in the error shape.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server.js';
import { reportFigure, residentMiB, watchPeakMemory } from './figures.js';

const POST_BYTES = 450 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 'a');

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { CATALOGUE_RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await server?.stop();
});

interface Answer {
  status: number;
  body: string;
}

/**
 * Posts `bytes` of a form field, generated as it is sent: with a Content-Length, or chunked (no length
 * declared, so the server can only count as it reads). Stops sending once the server has answered.
 */
function hugePost(path: string, type: string, declareLength: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': type,
        accept: 'application/json',
        ...(declareLength && { 'content-length': String(POST_BYTES + 6) }),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    let sent = 0;
    const pump = () => {
      if (sent === 0) {
        req.write('title=');
      }
      while (!answered && sent < POST_BYTES) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('request bodies over the limit', () => {
  it('ten parallel 450 MB posts, forms and JSON, declared or chunked: all 413, memory stays under idle + 64 MiB', async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = residentMiB(server.pid);
    const peak = watchPeakMemory(server.pid);
    const started = performance.now();
    const posts = Array.from({ length: 10 }, (_, i) =>
      hugePost(
        i % 2 === 0 ? '/books' : '/books/1',
        i % 3 === 0 ? 'application/json' : 'application/x-www-form-urlencoded',
        i < 5,
      ),
    );
    const answers = await Promise.all(posts);
    const seconds = (performance.now() - started) / 1000;
    const growth = peak.stop() - idle;
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 413, message: expect.stringMatching(/larger than the limit of 16384 bytes/) },
      });
    }
    reportFigure('RSS growth during 10 parallel 450 MB posts', growth, 'MiB', 'bound: idle + 64 MiB');
    reportFigure('time until all 10 were answered 413', seconds, 's', 'no bound');
    expect(growth).toBeLessThan(64);
    // And the service is still itself.
    const health = await fetch(new URL('/health', server.url));
    expect(health.status).toBe(200);
  });
});
