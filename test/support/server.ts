/**
 * `src/server.ts` as its own process, for tests that talk to it over a socket: on a free port on 127.0.0.1,
 * started with the defaults and the test's environment, on a fresh database (dropped when it stops) or on
 * one the test owns, optionally filled by `catalogue generate` first; and requests to it as a token's holder.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { json, type TestClient } from './catalogue.js';
import { directUrlOf, type FreshDatabaseOptions, freshDatabase } from './database.js';
import { runScript, spawnScript } from './script.js';

/** The librarian token a server is started with (`CATALOGUE_ADMIN_TOKEN`) unless the test sets another. */
export const ADMIN_TOKEN = 'test-server-librarian-token-0123456789abcdef';

export interface RunningServer {
  process: ChildProcess;
  /** The server's process id (its memory can be read from /proc). */
  pid: number;
  /** The root URL from its "listening" line, e.g. `http://localhost:41234/`. */
  url: string;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** What it wrote on stdout alone. */
  stdout(): string;
  /** SIGTERM (SIGKILL if it has not stopped after 15 s), wait for the exit, drop a fresh database. */
  stop(): Promise<void>;
  /** SIGKILL, after a failure: wait for the exit, drop a fresh database. */
  kill(): Promise<void>;
}

export interface ServerOptions {
  /**
   * A database of the test's own, as the environment that points the server at it (a `FreshDatabase`, or
   * e.g. `{ env: { DATABASE_URL: cluster.url } }`): not dropped. By default a fresh one, as `fresh` says.
   */
  database?: { env: Record<string, string> };
  /** Where the fresh database is made (by default: DATABASE_URL's server, or PGlite in memory). */
  fresh?: FreshDatabaseOptions;
  /**
   * Environment over the defaults (a free port on 127.0.0.1, the sample catalogue, `ADMIN_TOKEN`, and every
   * other `CATALOGUE_` setting unset), e.g. `CATALOGUE_RATE_LIMITS: 'off'`.
   */
  env?: Record<string, string>;
  /** A catalogue of this many generated books (`catalogue generate`) instead of an empty one. */
  books?: number;
}

/** Starts a server and waits for its "listening" log line (at most 90 s). */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const fresh = options.database
    ? undefined
    : await freshDatabase({ persistent: options.books !== undefined, label: 'server', ...options.fresh });
  const drop = fresh ? fresh.drop : async () => {};
  const env: NodeJS.ProcessEnv = {
    ...withoutSettings(process.env),
    PORT: '0',
    HOST: '127.0.0.1',
    CATALOGUE_SEED: '',
    CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
    ...(options.database ?? fresh)?.env,
    ...options.env,
  };
  const listenUrl = env.DATABASE_URL ? directUrlOf(env.DATABASE_URL) : undefined;
  if (listenUrl && !env.DATABASE_LISTEN_URL) env.DATABASE_LISTEN_URL = listenUrl;
  if (options.books !== undefined) {
    const run = await runScript('src/cli.ts', ['generate', '--books', String(options.books)], env);
    if (run.code !== 0) {
      await drop();
      throw new Error(`catalogue generate failed:\n${run.stderr}`);
    }
  }
  const script = spawnScript('src/server.ts', [], env);
  const child = script.process;
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const end = async (signal: NodeJS.Signals) => {
    if (!ended()) {
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited.finally(() => clearTimeout(timer));
    }
    await drop();
  };
  let dropped: Promise<void> | undefined;
  const stopWith = (signal: NodeJS.Signals) => {
    dropped ??= end(signal);
    return dropped;
  };
  try {
    const url = await listening(child, script.output);
    return {
      process: child,
      pid: child.pid as number,
      url,
      output: script.output,
      stdout: script.stdout,
      stop: () => stopWith('SIGTERM'),
      kill: () => stopWith('SIGKILL'),
    };
  } catch (error) {
    await stopWith('SIGKILL');
    throw error;
  }
}

/**
 * The environment without the server's settings, so that only the defaults and the test's own apply.
 * `DATABASE_PREPARE` alone passes through, so that the suite can be run behind a transaction pooler.
 */
function withoutSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !/^(CATALOGUE_|DATABASE_URL$|DATABASE_LISTEN_URL$|PORT$|HOST$)/.test(name)),
  );
}

/** Waits for the "listening" log line and answers the URL in it. */
function listening(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output()}`)), 90_000);
    child.stdout?.on('data', () => {
      const match = /"url":"([^"]+)".*"message":"listening"/.exec(output());
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

/** Sends a request to a server as the holder of `token`, with a JSON body if one is given. */
export function call(server: RunningServer, token: string, method: string, path: string, body?: unknown) {
  return fetch(new URL(path, server.url), {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** Requests to a server as the holder of `token`, for the helpers that take an in-process client. */
export function clientOf(server: RunningServer, token: string): TestClient {
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(new URL(path, server.url), { ...init, headers });
  };
  return {
    request,
    send: (method, path, body, headers = {}) =>
      request(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

/** The body of a 201, the document `T` the caller names, or an error naming what could not be created. */
export async function created<T = unknown>(response: Response, what: string): Promise<T> {
  if (response.status !== 201) throw new Error(`creating ${what}: ${response.status} ${await response.text()}`);
  return json<T>(response);
}
