/**
 * `CATALOGUE_WORKERS` on the embedded database: a data directory opens in one process only, so the service
 * runs as one process and says why on start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsRunning } from './support/processes.js';
import { type RunningServer, startServer } from './support/server.js';

describe('CATALOGUE_WORKERS=2 on PGlite', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      database: { env: { DATABASE_URL: '', CATALOGUE_DATA_DIR: 'memory://' } },
      env: { CATALOGUE_WORKERS: '2' },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('serves from one process, and its log says why', async () => {
    expect(server.stdout()).toContain(
      '"workers":1,"reason":"CATALOGUE_WORKERS=2 needs a PostgreSQL server (DATABASE_URL): an embedded data directory can be opened by one process only","message":"one process"',
    );
    expect(descendantsRunning(server.pid, 'src/server.ts')).toEqual([]);
    expect((await fetch(new URL('/books', server.url))).status).toBe(200);
  });
});
