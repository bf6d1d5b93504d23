/**
 * One process at a time owns an embedded data directory: a second server, or the operator CLI, started on
 * a directory a live server holds refuses with a message naming that process, and changes nothing; a lock
 * left by a server killed with SIGKILL does not stop the next start. Embedded database only (a PostgreSQL
 * server has no data directory of ours).
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from './support/script.js';
import { type RunningServer, startServer as startServerOn } from './support/server.js';

const ADMIN_TOKEN = 'data-dir-lock-librarian-token-0123456789';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'catalogue-lock-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** The data directory, as the environment that points a process at it (the test's own: it outlives them). */
const onDataDir = () => ({ DATABASE_URL: '', CATALOGUE_DATA_DIR: dataDir });
const settings = { CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN };

const startServer = () => startServerOn({ database: { env: onDataDir() }, env: settings });

/** Runs a process on the data directory to its end; answers its exit code and output. */
async function runToEnd(script: string, args: string[] = []) {
  const run = await runScript(script, args, { ...onDataDir(), ...settings, PORT: '0', HOST: '127.0.0.1' });
  return { code: run.code as number, output: run.output };
}

async function addBook(server: RunningServer, title: string) {
  const author = await fetch(new URL('/authors', server.url), {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `Author of ${title}` }),
  });
  expect(author.status).toBe(201);
  return author;
}

describe('the data directory lock', () => {
  let first: RunningServer;
  afterAll(() => first?.kill());

  it('a second server on the same directory refuses to start, naming the process that owns it', async () => {
    first = await startServer();
    await addBook(first, 'Before');
    const second = await runToEnd('src/server.ts');
    expect(second.code).not.toBe(0);
    expect(second.output).toContain(`in use by process ${first.pid}`);
    expect(second.output).not.toMatch(/listening/);
    expect(second.output).not.toMatch(/\n\s+at /); // a message, not a stack trace
    // The owner goes on serving.
    expect((await fetch(new URL('/health', first.url))).status).toBe(200);
  }, 120_000);

  it("the operator CLI on a running server's directory says so, exits non-zero, and creates nothing", async () => {
    const run = await runToEnd('src/cli.ts', ['users', 'add', '--name', 'Locked Out']);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(`in use by process ${first.pid}`);
    expect(run.output).not.toMatch(/token cat_/);
    const users = await fetch(new URL('/users?query=Locked', first.url), {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(await users.json()).toEqual([]);
  }, 120_000);

  it('after SIGKILL the lock is left behind, and the next start takes it over without clean-up', async () => {
    first.process.kill('SIGKILL');
    await once(first.process, 'exit');
    expect(existsSync(join(dataDir, 'catalogue.lock'))).toBe(true);
    const next = await startServer();
    try {
      expect((await fetch(new URL('/health', next.url))).status).toBe(200);
      const authors = (await (await fetch(new URL('/authors', next.url))).json()) as { name: string }[];
      expect(authors.map((a: { name: string }) => a.name)).toContain('Author of Before');
    } finally {
      await next.stop();
    }
    // A clean stop releases the lock.
    expect(existsSync(join(dataDir, 'catalogue.lock'))).toBe(false);
  }, 120_000);
});
