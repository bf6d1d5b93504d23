/**
 * `src/server.ts` as a process of its own on a given database, for tests where several processes share
 * one PostgreSQL database, and requests to it over HTTP as the holder of a token.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { json } from './catalogue.js';

export interface RunningServer {
  process: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `src/server.ts` on a free port and waits for its "listening" log line. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
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
        // The server listens on 127.0.0.1 only; its log line says "localhost".
        const listening = new URL(match[1]);
        listening.hostname = '127.0.0.1';
        resolve(listening.href);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server exited:\n${output}`));
    });
  });
  return { process: child, url, output: () => output };
}

/** Kills what is still running (after a failed test), without waiting. */
export function killServers(servers: (RunningServer | undefined)[]): void {
  for (const server of servers) {
    if (server && server.process.exitCode === null && server.process.signalCode === null) {
      server.process.kill('SIGKILL');
    }
  }
}

/** Sends a request to one server as the holder of `token`. */
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

/** The body of a 201, or an error naming what could not be created. */
export async function created(response: Response, what: string) {
  if (response.status !== 201) throw new Error(`creating ${what}: ${response.status} ${await response.text()}`);
  return json(response);
}
