/**
 * The service as its own process, for clients that must talk to it over a socket (Ketting, the example
 * scripts): `src/server.ts` on a free port, on a fresh database (in memory, or a new database on the
 * PostgreSQL server that DATABASE_URL names, dropped on stop), with the sample catalogue and a known
 * librarian token.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

/** The librarian token the server is started with (`CATALOGUE_ADMIN_TOKEN`). */
export const ADMIN_TOKEN = 'live-server-librarian-token-0123456789abcdef';

export interface LiveServer {
  /** The root URL, e.g. `http://localhost:41234/`. */
  url: string;
  /** The server's process id (its memory can be read from /proc). */
  pid: number;
  /** Everything the process wrote so far. */
  output(): string;
  /** SIGTERM, wait for the exit, drop the database. */
  stop(): Promise<void>;
}

export interface LiveServerOptions {
  /** A database of the test's own to serve (it is not dropped); by default a fresh one as above. */
  databaseUrl?: string;
  /** More environment for the server, e.g. `CATALOGUE_RATE_LIMITS: 'off'`. */
  env?: Record<string, string>;
  /** A generated catalogue of this many books (`catalogue generate`) instead of an empty one. */
  books?: number;
}

export async function startLiveServer(options: LiveServerOptions = {}): Promise<LiveServer> {
  const { env, drop } = options.databaseUrl
    ? { env: { DATABASE_URL: options.databaseUrl }, drop: async () => {} }
    : await freshDatabase(options.books !== undefined);
  const serverEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    CATALOGUE_SEED: '',
    CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
    ...env,
    ...options.env,
  };
  if (options.books !== undefined)
    await generate(options.books, serverEnv).catch(async (error) => {
      await drop();
      throw error;
    });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  try {
    const url = await listening(child, () => output);
    return { url, pid: child.pid as number, output: () => output, stop: () => stop(child).finally(drop) };
  } catch (error) {
    await stop(child).finally(drop);
    throw error;
  }
}

/** Waits for the "listening" log line and answers the URL in it. */
function listening(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output()}`)), 90_000);
    child.stdout?.on('data', () => {
      const match = /"message":"listening","url":"([^"]+)"/.exec(output());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server exited:\n${output()}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Fills the database with `catalogue generate`, as an operator would. */
async function generate(books: number, env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'generate', '--books', String(books)], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`catalogue generate failed:\n${errors}`);
}

/**
 * A new database: on the PostgreSQL server DATABASE_URL names, or PGlite, in memory unless the catalogue
 * must outlive one process (a generated one is written by the CLI first), then in a temporary directory.
 */
async function freshDatabase(onDisk = false): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl && onDisk) {
    const dir = await mkdtemp(join(tmpdir(), 'catalogue-live-'));
    return {
      env: { DATABASE_URL: '', CATALOGUE_DATA_DIR: dir },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  if (!serverUrl) return { env: { DATABASE_URL: '', CATALOGUE_DATA_DIR: 'memory://' }, drop: async () => {} };
  const name = `catalogue_live_${randomBytes(4).toString('hex')}`;
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
