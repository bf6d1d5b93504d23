/**
 * The SIP2 listener as the server process starts it (`CATALOGUE_SIP2_PORT`), on PGlite and (with
 * DATABASE_URL) PostgreSQL: off by default, answering terminals beside HTTP, closed with the process on
 * SIGTERM (its connections ended, exit 0), and a port in use said plainly at start-up.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { millisecondsUntil } from './support/poll.js';
import { runScript } from './support/script.js';
import { type RunningServer, startServer } from './support/server.js';
import { TestTerminal } from './support/sip2.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('the server process with CATALOGUE_SIP2_PORT', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('listens for terminals beside HTTP, and SIGTERM ends their connections and the process', async () => {
    const port = await freePort();
    server = await startServer({ env: { CATALOGUE_SIP2_PORT: String(port), CATALOGUE_SEED: 'none' } });
    const running = server;
    const ready = await millisecondsUntil(async () => running.output().includes('"message":"sip2 listening"'), 30_000);
    expect(ready).toBeLessThan(Number.POSITIVE_INFINITY);
    const terminal = await TestTerminal.open(port);
    expect((await terminal.sendBytes('9900302.00AY1AZFCA5')).toString()).toMatch(/^98NNNYNN030003/);
    expect((await terminal.sendBytes('9300CNnobody|COnothing|')).toString()).toBe('940');
    expect((await fetch(new URL('/health', running.url))).status).toBe(200);
    await running.stop();
    await terminal.closed;
    expect(running.process.exitCode).toBe(0);
  }, 120_000);

  it('a SIP2 port in use: one line saying so, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      // The embedded database in memory, whatever the suite runs on: the start fails before it matters.
      const run = await runScript('src/server.ts', [], {
        DATABASE_URL: '',
        CATALOGUE_DATA_DIR: 'memory://',
        CATALOGUE_SEED: 'none',
        PORT: '0',
        HOST: '127.0.0.1',
        CATALOGUE_SIP2_PORT: String(port),
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`catalogue could not start: SIP2 port ${port} on 127.0.0.1 is in use\n`);
    } finally {
      taken.close();
    }
  }, 120_000);
});
