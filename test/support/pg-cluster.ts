/**
 * A PostgreSQL 15 cluster of a test's own, for failure tests that stop and start the database: never the
 * shared server on 5432. Created with Debian's `pg_createcluster` on a free port, trusting local TCP
 * connections, and dropped (stopped first) when the test ends.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface TestCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  start(): void;
  /** Stops the server at once (`immediate`: no waiting for clients), as a crash or an outage would. */
  stop(): void;
  drop(): void;
}

const VERSION = '15';

export async function createTestCluster(): Promise<TestCluster> {
  const name = `catalogue_test_${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  run('pg_createcluster', [VERSION, name, '--port', String(port)]);
  writeFileSync(
    `/etc/postgresql/${VERSION}/${name}/pg_hba.conf`,
    'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n',
  );
  const cluster: TestCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, 'start']),
    stop: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, 'stop', '-m', 'immediate']),
    drop: () => run('pg_dropcluster', ['--stop', VERSION, name]),
  };
  cluster.start();
  return cluster;
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: 'pipe' });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
