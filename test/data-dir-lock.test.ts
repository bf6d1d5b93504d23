/**
 * One process at a time owns an embedded data directory: a second server, or the operator CLI, started on
 * a directory a live server holds refuses with a message naming that process, and changes nothing; a lock
 * left by a server killed with SIGKILL does not stop the next start. Embedded database only (a PostgreSQL
 * server has no data directory of ours).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN_TOKEN = 'data-dir-lock-librarian-token-0123456789';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'catalogue-lock-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const env = () => ({
  ...process.env,
  DATABASE_URL: '',
  CATALOGUE_DATA_DIR: dataDir,
  CATALOGUE_SEED: 'none',
  CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
  PORT: '0',
  HOST: '127.0.0.1',
});

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

function spawnScript(script: string, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

async function startServer(): Promise<Started> {
  const { child, output } = spawnScript('src/server.ts');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /"message":"listening","url":"([^"]+)"/.exec(output());
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`server exited:\n${output()}`)));
  });
  return { child, url, output };
}

/** Runs a process to its end; answers its exit code and output. */
async function runToEnd(script: string, args: string[] = []) {
  const { child, output } = spawnScript(script, args);
  const [code] = await once(child, 'close');
  return { code: code as number, output: output() };
}

async function addBook(server: Started, title: string) {
  const author = await fetch(new URL('/authors', server.url), {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `Author of ${title}` }),
  });
  expect(author.status).toBe(201);
  return author;
}

describe('the data directory lock', () => {
  let first: Started;

  it('a second server on the same directory refuses to start, naming the process that owns it', async () => {
    first = await startServer();
    await addBook(first, 'Before');
    const second = await runToEnd('src/server.ts');
    expect(second.code).not.toBe(0);
    expect(second.output).toContain(`in use by process ${first.child.pid}`);
    expect(second.output).not.toMatch(/listening/);
    expect(second.output).not.toMatch(/\n\s+at /); // a message, not a stack trace
    // The owner goes on serving.
    expect((await fetch(new URL('/health', first.url))).status).toBe(200);
  }, 120_000);

  it("the operator CLI on a running server's directory says so, exits non-zero, and creates nothing", async () => {
    const run = await runToEnd('src/cli.ts', ['users', 'add', '--name', 'Locked Out']);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(`in use by process ${first.child.pid}`);
    expect(run.output).not.toMatch(/token cat_/);
    const users = await fetch(new URL('/users?query=Locked', first.url), {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(await users.json()).toEqual([]);
  }, 120_000);

  it('after SIGKILL the lock is left behind, and the next start takes it over without clean-up', async () => {
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    expect(existsSync(join(dataDir, 'catalogue.lock'))).toBe(true);
    const next = await startServer();
    try {
      expect((await fetch(new URL('/health', next.url))).status).toBe(200);
      const authors = (await (await fetch(new URL('/authors', next.url))).json()) as { name: string }[];
      expect(authors.map((a: { name: string }) => a.name)).toContain('Author of Before');
    } finally {
      next.child.kill('SIGTERM');
      await once(next.child, 'exit');
    }
    // A clean stop releases the lock.
    expect(existsSync(join(dataDir, 'catalogue.lock'))).toBe(false);
  }, 120_000);
});
