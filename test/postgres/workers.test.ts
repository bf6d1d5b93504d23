/**
 * `CATALOGUE_WORKERS=2` on PostgreSQL, as real processes on one port: requests are answered by two worker
 * processes (the request log names each one's pid), the first-start token is printed once, a worker killed
 * with SIGKILL is replaced while the port keeps answering, and SIGTERM to the primary lets the request in
 * flight finish, closes the port and ends every worker.
 */
import { once } from 'node:events';
import { type ClientRequest, createServer, type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import { alive, descendantsRunning, eventually, refused } from '../support/processes.js';
import { runScript } from '../support/script.js';
import { ADMIN_TOKEN, type RunningServer, startServer } from '../support/server.js';

/** A GET on a connection of its own: each new connection is handed to the next worker in turn. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode as number));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The pids in the server's log lines with this message, in order. */
function pidsOf(server: RunningServer, message: string): number[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.includes(`"message":"${message}"`))
    .map((line) => (JSON.parse(line) as { pid?: number }).pid)
    .filter((pid): pid is number => pid !== undefined);
}

describe('CATALOGUE_WORKERS=2 on PostgreSQL', () => {
  let server: RunningServer;
  let port: number;
  let token: string;

  beforeAll(async () => {
    // No operator token: the first start creates a librarian and prints theirs, which must happen once.
    server = await startServer({
      env: { CATALOGUE_WORKERS: '2', CATALOGUE_ADMIN_TOKEN: '', CATALOGUE_RATE_LIMITS: 'off' },
    });
    port = Number(new URL(server.url).port);
    await eventually(
      async () => new Set(pidsOf(server, 'listening')).size === 2,
      () => `two workers listening:\n${server.output()}`,
      90_000,
    );
    token = /First start: .*\n\n {2}(\S+)\n/.exec(server.stdout())?.[1] ?? '';
  }, 120_000);

  afterAll(async () => {
    await server?.kill();
  });

  it('answers from two worker processes below the primary, which serves nothing itself', async () => {
    const workers = descendantsRunning(server.pid, 'src/server.ts');
    expect(workers).toHaveLength(2);
    expect(new Set(pidsOf(server, 'listening'))).toEqual(new Set(workers));
    for (let i = 0; i < 8; i++) expect(await getOnNewConnection(new URL('/books', server.url).href)).toBe(200);
    await eventually(
      async () => pidsOf(server, 'request').length >= 8,
      () => 'eight request log lines',
    );
    expect(new Set(pidsOf(server, 'request'))).toEqual(new Set(workers));
  });

  it('prints the first-start token once, and it signs in on every worker', async () => {
    expect(server.stdout().match(/First start/g)).toHaveLength(1);
    for (let i = 0; i < 4; i++) {
      const response = await fetch(new URL('/users', server.url), {
        headers: { Authorization: `Bearer ${token}`, Connection: 'close' },
      });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
  });

  it('replaces a worker killed with SIGKILL, sooner the first time than the next, and the port keeps answering', async () => {
    const [victim, survivor] = descendantsRunning(server.pid, 'src/server.ts') as [number, number];
    process.kill(victim, 'SIGKILL');
    await eventually(
      async () => server.output().includes('"message":"worker exited; replacing it"'),
      () => `the primary to notice:\n${server.output()}`,
    );
    // Until the replacement listens, the survivor answers every connection.
    for (let i = 0; i < 6; i++) expect(await getOnNewConnection(new URL('/health', server.url).href)).toBe(200);
    await eventually(
      async () => pidsOf(server, 'listening').length === 3,
      () => `a new worker listening:\n${server.output()}`,
      60_000,
    );
    const workers = descendantsRunning(server.pid, 'src/server.ts');
    expect(workers).toHaveLength(2);
    expect(workers).toContain(survivor);
    expect(workers).not.toContain(victim);
    expect(server.output()).toContain(`"worker":${victim},"code":null,"signal":"SIGKILL","inMs":100`);

    // A second death within the minute waits twice as long: a crash loop is not a busy loop.
    const replacement = workers.find((pid) => pid !== survivor) as number;
    process.kill(replacement, 'SIGKILL');
    await eventually(
      async () => pidsOf(server, 'listening').length === 4,
      () => `another new worker listening:\n${server.output()}`,
      60_000,
    );
    expect(server.output()).toContain(`"worker":${replacement},"code":null,"signal":"SIGKILL","inMs":200`);
    expect(descendantsRunning(server.pid, 'src/server.ts')).toHaveLength(2);
  }, 120_000);

  it('on SIGTERM to the primary finishes the request in flight, closes the port and ends every worker', async () => {
    const workers = descendantsRunning(server.pid, 'src/server.ts');
    // A write whose body is half sent: a worker has the request (it answered 100 Continue) and waits.
    const body = JSON.stringify({ name: 'Inflight Whilestopping' });
    const inFlight: ClientRequest = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/authors',
      agent: false,
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Expect: '100-continue',
      },
    });
    const response = once(inFlight, 'response') as Promise<[IncomingMessage]>;
    await once(inFlight, 'continue');
    inFlight.write(body.slice(0, 10));

    const exited = once(server.process, 'exit');
    server.process.kill('SIGTERM');
    await eventually(
      () => refused(port),
      () => 'the port to close',
    );
    expect(alive(server.pid), 'the primary waits for the worker with a request in flight').toBe(true);

    inFlight.end(body.slice(10));
    const [answer] = await response;
    let text = '';
    for await (const chunk of answer) text += chunk;
    expect(answer.statusCode, text).toBe(201);

    const [code, signal] = await exited;
    expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null });
    await eventually(
      async () => !workers.some(alive),
      () => 'every worker to be gone',
    );
    expect(pidsOf(server, 'stopped').sort()).toEqual([...workers].sort());
  }, 60_000);
});

describe('CATALOGUE_WORKERS=2 when no worker can start', () => {
  it('stops with status 1 and the workers’ reason instead of replacing them', async () => {
    const database = await freshDatabase({ label: 'workers_fail' });
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const run = await runScript('src/server.ts', [], {
        ...database.env,
        CATALOGUE_WORKERS: '2',
        PORT: String(port),
        HOST: '127.0.0.1',
        CATALOGUE_SEED: 'none',
        CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
      });
      expect(run.code, run.output).toBe(1);
      expect(run.stderr).toContain(`catalogue could not start: port ${port} on 127.0.0.1 is in use`);
      expect(run.stderr).toContain('"message":"a worker could not start; stopping"');
      expect(run.output).not.toContain('replacing it');
    } finally {
      taken.close();
      await database.drop();
    }
  }, 90_000);
});
