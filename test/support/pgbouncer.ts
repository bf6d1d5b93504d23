/**
 * A pgbouncer (Debian's, /usr/sbin/pgbouncer) of one test's own, in transaction mode, in front of the
 * PostgreSQL server a URL names: its configuration in a temporary directory, listening on a free port on
 * 127.0.0.1, trusting every user as that server does, and stopped (its directory removed) at the end.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './processes.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface Pgbouncer {
  /** `url` (a database on the server) as reached through pgbouncer. */
  through(url: string): string;
  /** What pgbouncer logged so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  /** Server connections per database and user; small, so that a client's transactions land on several. */
  poolSize?: number;
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

export async function startPgbouncer(serverUrl: string, options: PgbouncerOptions = {}): Promise<Pgbouncer> {
  const server = new URL(serverUrl);
  const dir = await mkdtemp(join(tmpdir(), 'catalogue-pgbouncer-'));
  const port = await freePort();
  // pgbouncer refuses to run as root; started as root, it switches to `user` (who must read the files).
  const asRoot = process.getuid?.() === 0;
  const lines = [
    '[databases]',
    // Any database, so that tests may create their own; the catalogue's statement budget, which it sends as
    // a startup parameter pgbouncer cannot pass on, is set on each server connection instead.
    `* = host=${server.hostname} port=${server.port || 5432} connect_query='SET statement_timeout = 5000'`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize ?? 4}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = statement_timeout',
    ...(asRoot ? ['user = postgres'] : []),
  ];
  await writeFile(join(dir, 'pgbouncer.ini'), `${lines.join('\n')}\n`);
  await writeFile(join(dir, 'users.txt'), `"${decodeURIComponent(server.username) || 'postgres'}" ""\n`);
  await chmod(dir, 0o755);
  const child: ChildProcess = spawn(PGBOUNCER, [join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  child.on('error', (error) => {
    output += `${error.message}\n`;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      // Immediate shutdown (SIGINT would wait for every client to leave).
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${output}`);
        return output.includes('process up');
      },
      () => `pgbouncer to start:\n${output}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    through(url) {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.href;
    },
    output: () => output,
    stop,
  };
}
