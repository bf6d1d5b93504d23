/**
 * `npm start` as a supervisor runs it: started as a child, stopped with SIGTERM sent to npm alone. The
 * signal must reach the server's graceful shutdown (npm forwards it to its child, which is the server only
 * if the start script `exec`s it): the request in flight finishes, new connections are refused, npm exits
 * 0, and no server is left running. Runs on a PGlite directory in a temporary folder, or on a fresh
 * database on the PostgreSQL server that DATABASE_URL names.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './support/database.js';
import { alive, descendants, eventually, refused } from './support/processes.js';

const ADMIN_TOKEN = 'npm-start-librarian-token-0123456789abcdef';

describe('npm start, stopped with SIGTERM to npm', () => {
  let npm: ChildProcess;
  let output = '';
  let port: number;
  let drop: () => Promise<void>;
  let below: number[] = [];

  beforeAll(async () => {
    const database = await freshDatabase({ persistent: true, label: 'start' });
    drop = database.drop;
    npm = spawn('npm', ['start'], {
      env: {
        ...process.env,
        ...database.env,
        PORT: '0',
        HOST: '127.0.0.1',
        CATALOGUE_SEED: 'none',
        CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
        CATALOGUE_RATE_LIMITS: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    npm.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    await eventually(
      async () => {
        if (npm.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
        const match = /"url":"http:\/\/localhost:(\d+)\/".*"message":"listening"/.exec(output);
        if (match) port = Number(match[1]);
        return match !== null;
      },
      () => `the "listening" line from npm start:\n${output}`,
      90_000,
    );
  }, 120_000);

  afterAll(async () => {
    // Whatever the outcome, leave nothing running (descendants first: once npm is gone they are orphans).
    const started = npm.pid ? [...below, ...descendants(npm.pid), npm.pid] : below;
    for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await drop();
  });

  it('runs the server with the heap growth bounded that keeps a whole-catalogue stream within its memory', () => {
    const servers = descendants(npm.pid as number)
      .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))
      .filter((args) => args.some((arg) => arg.endsWith('dist/server.js')));
    expect(servers).toHaveLength(1);
    expect(servers[0]).toContain('--heap-growing-percent=100');
  });

  it('finishes the request in flight, refuses new connections, exits 0 and leaves no server behind', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    below = descendants(npm.pid as number);
    expect(below.length).toBeGreaterThan(0);

    // A write whose body is half sent: the server has the request (it answered 100 Continue) and waits.
    const body = JSON.stringify({ name: 'Inflight Whilestopping' });
    const inFlight: ClientRequest = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/authors',
      agent: false,
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Expect: '100-continue',
        Connection: 'keep-alive',
      },
    });
    const response = once(inFlight, 'response') as Promise<[IncomingMessage]>;
    await once(inFlight, 'continue');
    inFlight.write(body.slice(0, 10));

    const exited = once(npm, 'exit');
    npm.kill('SIGTERM');
    await eventually(
      () => refused(port),
      () => 'the server to stop accepting connections',
    );
    expect(below.every(alive), 'the server still runs while its request is in flight').toBe(true);

    inFlight.end(body.slice(10));
    const [answer] = await response;
    let text = '';
    for await (const chunk of answer) text += chunk;
    expect(answer.statusCode, text).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ name: 'Inflight Whilestopping' });

    const [code, signal] = await exited;
    expect({ code, signal }, output).toEqual({ code: 0, signal: null });
    await eventually(
      async () => !below.some(alive),
      () => 'every process npm started to be gone',
    );
    expect(await refused(port)).toBe(true);
    expect(output).toContain('"message":"stopped"');
  }, 60_000);
});
