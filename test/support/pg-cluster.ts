/**
 * A PostgreSQL 15 cluster of a test's own, for failure tests that stop and start the database: never the
 * shared server on 5432. Created with Debian's `pg_createcluster` on a free port, trusting local TCP
 * connections, and dropped (stopped first) when the test ends. `createReplicatedClusters` adds a streaming
 * standby, for tests of read replicas and failover, and for the benchmark's scaling scenario
 * (scripts/bench/scaling.ts), which imports this file outside vitest: it must not import vitest.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface TestCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  start(): void;
  /** Stops the server at once (`immediate`: no waiting for clients), as a crash or an outage would. */
  stop(): void;
  /** `stop`, without blocking this process: requests a test makes keep flowing while the server dies. */
  kill(): Promise<void>;
  drop(): void;
}

/** A primary and a streaming-replication standby of it, each a `TestCluster`. */
export interface ReplicatedClusters {
  primary: TestCluster;
  standby: TestCluster & {
    /** Makes the standby a primary (`pg_ctl promote`), as Patroni does when the primary is lost. */
    promote(): void;
  };
  drop(): void;
}

const VERSION = '15';

export async function createTestCluster(): Promise<TestCluster> {
  const cluster = await createdCluster();
  cluster.start();
  return cluster;
}

/**
 * A primary and a standby that streams from it (`pg_basebackup -R`), both started. With `synchronous`, the
 * primary waits for the standby to have written each commit before acknowledging it
 * (`synchronous_standby_names = '*'`), so that no acknowledged write is lost when the standby is promoted.
 */
export async function createReplicatedClusters(options: { synchronous?: boolean } = {}): Promise<ReplicatedClusters> {
  const primary = await createTestCluster();
  let standby: CreatedCluster | undefined;
  try {
    standby = await createdCluster();
    // Emptied rather than removed: its parent is not the postgres user's to create in.
    for (const entry of readdirSync(standby.dataDir)) rmSync(`${standby.dataDir}/${entry}`, { recursive: true });
    const primaryPort = new URL(primary.url).port;
    const basebackup = ['-h', '127.0.0.1', '-p', primaryPort, '-U', 'postgres', '-D', standby.dataDir, '-R'];
    run('runuser', ['-u', 'postgres', '--', 'pg_basebackup', ...basebackup, '-X', 'stream', '-c', 'fast']);
    standby.start();
    if (options.synchronous) {
      psql(primary.url, "alter system set synchronous_standby_names = '*'");
      psql(primary.url, 'select pg_reload_conf()');
    }
    const { name } = standby;
    const promote = () => run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, 'promote']);
    const created = standby;
    return {
      primary,
      standby: { ...created, promote },
      drop() {
        created.drop();
        primary.drop();
      },
    };
  } catch (error) {
    standby?.drop();
    primary.drop();
    throw error;
  }
}

/** Runs one statement with psql, for settings the service itself never changes. */
export function psql(url: string, statement: string): string {
  return execFileSync('psql', [url, '-XAtqc', statement], { encoding: 'utf8' }).trim();
}

interface CreatedCluster extends TestCluster {
  name: string;
  dataDir: string;
}

/** A cluster created but not started, trusting local connections, replication ones included. */
async function createdCluster(): Promise<CreatedCluster> {
  const name = `catalogue_test_${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  run('pg_createcluster', [VERSION, name, '--port', String(port)]);
  writeFileSync(
    `/etc/postgresql/${VERSION}/${name}/pg_hba.conf`,
    'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n' +
      'host replication all 127.0.0.1/32 trust\n',
  );
  return {
    name,
    dataDir: `/var/lib/postgresql/${VERSION}/${name}`,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, 'start']),
    stop: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, 'stop', '-m', 'immediate']),
    kill: () =>
      new Promise((resolve, reject) =>
        execFile('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, 'stop', '-m', 'immediate'], (error) =>
          error ? reject(error) : resolve(),
        ),
      ),
    drop: () => run('pg_dropcluster', ['--stop', VERSION, name]),
  };
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

/**
 * One URL that lists both servers, the standby first (as a URL written before a failover may well do), and
 * no `target_session_attrs`, which the service adds: what an operator without Patroni configures.
 */
export function multiHostUrl(clusters: ReplicatedClusters): string {
  const [primary, standby] = [new URL(clusters.primary.url), new URL(clusters.standby.url)];
  return `postgres://postgres@${standby.host},${primary.host}/postgres`;
}
