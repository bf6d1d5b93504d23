/**
 * The listening connection (`src/db/listen.ts`, postgres.js's `listen`) tells its listeners what the caller
 * cache relies on: `ready` once it listens, `lost` as soon as the connection drops (notifications sent then
 * are gone), `ready` again once it listens on a new connection, and every notification while it listens.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENING_APPLICATION_NAME, type Listening, listenOnPostgres } from '../../src/db/listen.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import { millisecondsUntil } from '../support/poll.js';

const CHANNEL = 'catalogue_listen_test';

describe('a listening connection on PostgreSQL', () => {
  let database: PostgresDatabase;
  let admin: postgres.Sql;
  let listening: Listening;
  const told: string[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase(process.env.DATABASE_URL as string, 'listen');
    admin = postgres(database.url, { max: 1, onnotice: () => {} });
    listening = listenOnPostgres(database.url);
    listening.listen(CHANNEL, {
      notified: (payload) => told.push(`notified ${payload}`),
      ready: () => told.push('ready'),
      lost: () => told.push('lost'),
    });
  });

  afterAll(async () => {
    await listening?.close();
    await admin?.end();
    await database?.drop();
  });

  const notify = (payload: string) => admin`select pg_notify(${CHANNEL}, ${payload})`;

  it('is ready, then hears notifications', async () => {
    expect(await millisecondsUntil(async () => told.includes('ready'))).toBeLessThan(5_000);
    await notify('1');
    expect(await millisecondsUntil(async () => told.includes('notified 1'))).toBeLessThan(1_000);
  });

  it('says it lost the connection as soon as it drops, and is ready again on a new one', async () => {
    told.length = 0;
    await admin`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = ${database.name} and application_name = ${LISTENING_APPLICATION_NAME}`;
    expect(await millisecondsUntil(async () => told.includes('ready'))).toBeLessThan(5_000);
    expect(told).toEqual(['lost', 'ready']);
    await notify('2');
    expect(await millisecondsUntil(async () => told.includes('notified 2'))).toBeLessThan(1_000);
  });

  it('keeps one session, which runs its heartbeat and still listens after it', async () => {
    told.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const sessions = await admin`select query from pg_stat_activity
      where datname = ${database.name} and application_name = ${LISTENING_APPLICATION_NAME}`;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.query).toMatch(/^unlisten "catalogue_listen_heartbeat"/i);
    await notify('3');
    expect(await millisecondsUntil(async () => told.includes('notified 3'))).toBeLessThan(1_000);
    expect(told).toEqual(['notified 3']);
  });
});
