/**
 * The service as its own process, for clients that must talk to it over a socket (Ketting, the example
 * scripts): `src/server.ts` on a free port, on a fresh database (in memory, or a new database on the
 * PostgreSQL server that DATABASE_URL names, dropped on stop), with the sample catalogue and a known
 * librarian token.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import postgres from 'postgres';

/** The librarian token the server is started with (`CATALOGUE_ADMIN_TOKEN`). */
export const ADMIN_TOKEN = 'live-server-librarian-token-0123456789abcdef';

export interface LiveServer {
  /** The root URL, e.g. `http://localhost:41234/`. */
  url: string;
  /** Everything the process wrote so far. */
  output(): string;
  /** SIGTERM, wait for the exit, drop the database. */
  stop(): Promise<void>;
}

export interface LiveServerOptions {
  /** A database of the test's own to serve (it is not dropped); by default a fresh one as above. */
  databaseUrl?: string;
}

export async function startLiveServer(options: LiveServerOptions = {}): Promise<LiveServer> {
  const { env, drop } = options.databaseUrl
    ? { env: { DATABASE_URL: options.databaseUrl }, drop: async () => {} }
    : await freshDatabase();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOGUE_SEED: '',
      CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
      ...env,
    },
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
    return { url, output: () => output, stop: () => stop(child).finally(drop) };
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

async function freshDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
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
