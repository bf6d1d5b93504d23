/**
 * `npm test` and `npm run test:reliability` start with scripts/system-tools.js: on a machine without the
 * programs the tests call and no way to install them, they must stop at once with one line naming them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', 'scripts', 'system-tools.js');
const tools = ['chromium', 'xmllint', 'haproxy', 'patroni', 'pgbouncer', 'yaz-client'];
const folders: string[] = [];

/** A PATH holding node and the named programs only (each a script that does nothing). */
function pathWith(programs: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'system-tools-'));
  folders.push(folder);
  symlinkSync(process.execPath, join(folder, 'node'));
  for (const program of programs) {
    writeFileSync(join(folder, program), '#!/bin/sh\nexit 0\n');
    chmodSync(join(folder, program), 0o755);
  }
  return folder;
}

function runWith(path: string) {
  return spawnSync(join(path, 'node'), [script], { env: { PATH: path }, encoding: 'utf8' });
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the test commands’ system programs', () => {
  it('stop the run at once with one line naming what is missing and its Debian package, where apt-get is not to be had', () => {
    const result = runWith(pathWith(['haproxy', 'patroni', 'pgbouncer']));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('chromium, xmllint, yaz-client');
    expect(lines[0]).toContain('apt-get install chromium libxml2-utils yaz');
    expect(lines[0]).not.toContain('haproxy');
  });

  it('let the run go on, silently, when every program is there', () => {
    const result = runWith(pathWith(tools));
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe('');
  });

  it('are on this machine: the suite that runs here is the whole suite', () => {
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
