/**
 * @module The optional peer: Platformatic DB, which a user might pick instead (Fastify, with REST
 * generated over the same tables, so `GET /books/{id}` exists there too). It is installed with npm into
 * a scratch folder under /tmp, never into the project; when that fails the peer is skipped, not failed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Server, startServer } from './processes.js';
import type { PeerOutcome } from './report.js';

/** The major version the issue compared against; the folder is reused between runs. */
const PACKAGE = '@platformatic/db@2';
const FOLDER = '/tmp/catalogue-bench-platformatic';
const NAME = 'Platformatic DB';

export async function startPlatformatic(
  databaseUrl: string,
  logDir: string,
  log: (line: string) => void,
): Promise<{ outcome: PeerOutcome; server?: Server }> {
  const bin = join(FOLDER, 'node_modules/@platformatic/db/db.mjs');
  try {
    if (!existsSync(bin)) {
      mkdirSync(FOLDER, { recursive: true });
      if (!existsSync(join(FOLDER, 'package.json'))) writeFileSync(join(FOLDER, 'package.json'), '{"private":true}\n');
      log(`  npm install ${PACKAGE} in ${FOLDER}`);
      await npmInstall(FOLDER);
    }
    const version = JSON.parse(
      readFileSync(join(FOLDER, 'node_modules/@platformatic/db/package.json'), 'utf8'),
    ).version;
    writeFileSync(
      join(FOLDER, 'platformatic.json'),
      JSON.stringify(
        {
          $schema: `https://schemas.platformatic.dev/@platformatic/db/${version}.json`,
          // PORT is filled in by the environment, like the other servers'.
          server: { hostname: '127.0.0.1', port: '{PLT_PORT}', logger: { level: 'warn' } },
          db: { connectionString: '{PLT_DATABASE_URL}', graphql: false },
          watch: false,
        },
        null,
        2,
      ),
    );
    const server = await startServer({
      name: 'platformatic',
      args: [bin, 'start', '--config', join(FOLDER, 'platformatic.json')],
      env: { PLT_DATABASE_URL: databaseUrl },
      portVariable: 'PLT_PORT',
      readyPath: '/books/1',
      logDir,
      cwd: FOLDER,
    });
    return { outcome: { name: NAME, measured: true, version }, server };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown';
    return { outcome: { name: NAME, measured: false, reason } };
  }
}

function npmInstall(folder: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--no-save', PACKAGE], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm install ${PACKAGE} failed: ${errors.trim().split('\n').pop()}`)),
    );
  });
}
