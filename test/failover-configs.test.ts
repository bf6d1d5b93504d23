/**
 * The Patroni and HAProxy configurations that docs/scaling.md shows are ones the tools accept:
 * `haproxy -c` and `patroni --validate-config` (Debian's haproxy and patroni packages).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = 'docs/examples/failover';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('the failover configurations in docs/scaling.md', () => {
  it('haproxy.cfg is valid', () => {
    const output = execFileSync('haproxy', ['-c', '-f', `${folder}/haproxy.cfg`], { encoding: 'utf8' });
    expect(output).toMatch(/Configuration file is valid/);
  });

  it('patroni.yml is valid, and the validator is not one that accepts anything', async () => {
    const text = readFileSync(`${folder}/patroni.yml`, 'utf8');
    expect(text).toContain('listen: 0.0.0.0:5432');
    expect(await patroniAccepts(text)).toBe(true);
    expect(await patroniAccepts(text.replace('etcd3:', 'not_a_store:'))).toBe(false);
  });
});

/**
 * Whether `patroni --validate-config` accepts a configuration. The validator also checks that the
 * PostgreSQL port is free on this machine, where a server may listen on 5432: the copy checked listens on
 * a free port instead, and is otherwise the same.
 */
async function patroniAccepts(text: string): Promise<boolean> {
  const directory = mkdtempSync(join(tmpdir(), 'patroni-'));
  try {
    const copy = join(directory, 'patroni.yml');
    writeFileSync(copy, text.replace('listen: 0.0.0.0:5432', `listen: 127.0.0.1:${await freePort()}`));
    execFileSync('patroni', ['--validate-config', copy], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(directory, { recursive: true });
  }
}
