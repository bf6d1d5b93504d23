/**
 * SIP2 terminals as operators add them: `catalogue sip2 add-terminal` on a database of its own (a PGlite
 * directory, or with DATABASE_URL a PostgreSQL database made here), listed, refused twice, then signed in
 * over a real socket to a listener on that database with the password given to the CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { createLogger } from '../src/log.js';
import { startSip2Listener } from '../src/protocols/sip2/index.js';
import { createPostgresDatabase } from './support/database.js';
import { runScript } from './support/script.js';
import { TestTerminal } from './support/sip2.js';

describe('catalogue sip2', () => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  const runCli = (...args: string[]) => runScript('src/cli.ts', args, env);

  beforeAll(async () => {
    const serverUrl = process.env.DATABASE_URL;
    if (serverUrl) {
      const created = await createPostgresDatabase(serverUrl, 'sip2cli');
      env = { DATABASE_URL: created.url, CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' };
      cleanUp = created.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'catalogue-sip2-cli-'));
      env = { CATALOGUE_DATA_DIR: dir, CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' };
      cleanUp = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await cleanUp?.();
  });

  it('adds a terminal acting as a librarian made for it, lists it, and it signs in with its password', async () => {
    const added = await runCli(
      'sip2',
      'add-terminal',
      '--login',
      'kiosk-cli',
      '--password',
      'cli-secret',
      '--branch',
      'main',
      '--institution',
      'Main Library',
      '--charset',
      'iso-8859-1',
      '--no-error-detection',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /^terminal \d+ kiosk-cli at branch \d+, acting as user \d+\niso-8859-1, error detection off$/m,
    );
    expect(added.stdout).not.toContain('cli-secret');

    const listed = await runCli('sip2', 'list-terminals');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^kiosk-cli\tbranch \d+\tuser \d+\tiso-8859-1\tno AY\/AZ$/m);

    const again = await runCli(
      'sip2',
      'add-terminal',
      '--login',
      'kiosk-cli',
      '--password',
      'other-secret',
      '--branch',
      'main',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('catalogue: a terminal with login kiosk-cli exists\n');
    const short = await runCli('sip2', 'add-terminal', '--login', 'k2', '--password', 'abc', '--branch', 'main');
    expect(short.code).toBe(2);
    expect(short.stderr).toBe('catalogue: the password given with --password must be at least 4 characters.\n');
    const nowhere = await runCli('sip2', 'add-terminal', '--login', 'k3', '--password', 'abcd', '--branch', 'nowhere');
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toBe('catalogue: --branch nowhere names no branch (give its code or id).\n');

    // The CLI's own process owns a PGlite directory while it runs: the listener opens the database between runs.
    const signIn = async () => {
      const database: Database = await openDatabase(
        env.DATABASE_URL
          ? { kind: 'postgres', url: env.DATABASE_URL }
          : { kind: 'pglite', dataDir: env.CATALOGUE_DATA_DIR as string },
      );
      const listener = await startSip2Listener({
        database,
        clock: { now: () => new Date() },
        access: defaultConfig.access,
        currency: 'EUR',
        timeZone: 'UTC',
        pins: defaultConfig.pins,
        log: createLogger({ enabled: false }),
        port: 0,
        host: '127.0.0.1',
        idleSeconds: 60,
      });
      const terminal = await TestTerminal.open(listener.port);
      try {
        const login = (await terminal.sendBytes('9300CNkiosk-cli|COcli-secret|CPMain|', 'latin1')).toString();
        const status = (await terminal.sendBytes('9900302.00', 'latin1')).toString('latin1');
        return { login, status };
      } finally {
        terminal.end();
        await listener.close();
        await database.close();
      }
    };
    const signedIn = await signIn();
    expect(signedIn.login).toBe('941');
    expect(signedIn.status.slice(0, 5)).toBe('98YYY');
    expect(signedIn.status.slice(36)).toMatch(/^AOMain Library\|/);

    const removed = await runCli('sip2', 'remove-terminal', '--login', 'kiosk-cli');
    expect(removed.code, removed.stderr).toBe(0);
    expect((await signIn()).login).toBe('940');
  }, 120_000);
});
