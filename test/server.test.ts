/**
 * The service as an operator runs it: `node --import tsx src/server.ts` as its own process, configured by
 * environment, logging one line per request, and stopping cleanly on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './support/catalogue.js';

interface RunningServer {
  process: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the server on a free port and waits for its "listening" line. */
async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = /"message":"listening","url":"([^"]+)"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { process: child, url, output: () => output };
}

/** The database the server process uses: in memory, or a fresh one on the PostgreSQL server under test. */
async function serverDatabaseEnv(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { env: { CATALOGUE_DATA_DIR: 'memory://' }, drop: async () => {} };
  const name = `catalogue_server_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href },
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

describe('the server process', () => {
  let server: RunningServer;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await serverDatabaseEnv();
    drop = database.drop;
    server = await startServer(database.env);
  });
  afterAll(async () => {
    if (server.process.exitCode === null) server.process.kill('SIGKILL');
    await drop();
  });

  it('serves the root with links and controls, over a real socket', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    const root = await json(response);
    expect(root.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'books', 'authors', 'search']);
    expect(Object.keys(root.controls)).toEqual(['search']);
  });

  it('loads the sample catalogue on first start', async () => {
    const page = await json(await fetch(new URL('/books?per_page=1', server.url)));
    expect(page.meta.total_items).toBeGreaterThanOrEqual(300);
    const authors = await json(await fetch(new URL('/authors?per_page=1', server.url)));
    expect(authors.meta.total_items).toBeGreaterThanOrEqual(30);
  });

  it('answers /health with 200 while the database answers', async () => {
    const response = await fetch(new URL('/health', server.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('logs one structured line per request, with status and duration', async () => {
    await fetch(new URL('/books/987654', server.url));
    const line = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"path":"/books/987654"'))
      .map((l) => JSON.parse(l));
    expect(line).toHaveLength(1);
    expect(line[0]).toMatchObject({ message: 'request', method: 'GET', status: 404 });
    expect(typeof line[0].duration_ms).toBe('number');
  });

  it('stops gracefully on SIGTERM: exit code 0, after saying so', async () => {
    server.process.kill('SIGTERM');
    const [code] = await once(server.process, 'exit');
    expect(code).toBe(0);
    expect(server.output()).toContain('"message":"stopped"');
  });
});

describe('bad configuration', () => {
  it('stops at start-up with a message naming the variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: 'eighty', CATALOGUE_DATA_DIR: 'memory://' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be a whole number');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
