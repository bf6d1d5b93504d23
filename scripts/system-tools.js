/**
 * @module Brings the programs the test suites call besides Node (`pretest`, `pretest:reliability`): on Debian
 * as root it installs the missing ones with apt-get; anywhere else it stops at once, naming what to install.
 * Plain JavaScript: it runs before anything is built.
 *
 *   node scripts/system-tools.js          check, and install what is missing where it can
 *   node scripts/system-tools.js --check  only check: exit 1 with the one-line message if anything is missing
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Each program a test runs, the Debian package that brings it, and the tests that need it. */
const systemTools = [
  { command: 'chromium', debian: 'chromium', neededBy: 'the browser tests (playwright-core drives /usr/bin/chromium)' },
  { command: 'xmllint', debian: 'libxml2-utils', neededBy: 'the MARCXML, OAI-PMH and SRU schema checks' },
  { command: 'haproxy', debian: 'haproxy', neededBy: 'the check of the HAProxy configuration docs/scaling.md shows' },
  { command: 'patroni', debian: 'patroni', neededBy: 'the check of the Patroni configuration docs/scaling.md shows' },
  { command: 'pgbouncer', debian: 'pgbouncer', neededBy: 'the PostgreSQL suite, which runs the service behind it' },
  { command: 'yaz-client', debian: 'yaz', neededBy: 'the SRU tests, which search the server with it' },
];

/** Whether an executable of that name is on the PATH. */
function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function missingTools() {
  return systemTools.filter((tool) => !onPath(tool.command));
}

function stop(missing, why) {
  const names = missing.map((tool) => tool.command).join(', ');
  const packages = missing.map((tool) => tool.debian).join(' ');
  console.error(`The tests need ${names}, ${why}: install them (Debian: apt-get install ${packages}) and run again.`);
  process.exit(1);
}

function aptGet(args) {
  const result = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

const checkOnly = process.argv.includes('--check');
let missing = missingTools();
if (missing.length > 0) {
  const canInstall = !checkOnly && existsSync('/etc/debian_version') && process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall)
    stop(missing, checkOnly ? 'which are not installed' : 'which this script installs only on Debian as root');
  const packages = missing.map((tool) => tool.debian);
  console.log(`Installing what the tests need: ${packages.join(' ')} (apt-get)`);
  if (!aptGet(['update', '-qq']) || !aptGet(['install', '-y', '-qq', ...packages])) {
    stop(missing, 'which apt-get could not install');
  }
  missing = missingTools();
  if (missing.length > 0) stop(missing, 'which are still not on the PATH after apt-get installed their packages');
}
