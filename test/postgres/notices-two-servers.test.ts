/**
 * Notices from two server processes on one PostgreSQL database, each with `CATALOGUE_SMTP_URL` naming one
 * SMTP server in this process: each process runs a sender, and 300 charges' notices arrive once each,
 * signed with the library's name from the sender's address; stopped with SIGTERM, neither leaves a notice
 * half-sent.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../../src/db/client.js';
import { createPostgresDatabase, type PostgresDatabase } from '../support/database.js';
import type { UserDocument } from '../support/documents.js';
import { call, created, type RunningServer, startServer } from '../support/server.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const ADMIN_TOKEN = 'notices-two-servers-token-0123456789';
const CHARGES = 300;

describe('notices sent by two server processes', () => {
  let shared: PostgresDatabase;
  let database: Database | undefined;
  let smtp: TestSmtpServer;
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    shared = await createPostgresDatabase(process.env.DATABASE_URL as string, 'notices_servers');
    const options = {
      database: { env: { DATABASE_URL: shared.url } },
      env: {
        CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN,
        CATALOGUE_SEED: 'none',
        CATALOGUE_RATE_LIMITS: 'off',
        CATALOGUE_SMTP_URL: smtp.url,
        CATALOGUE_NOTICE_FROM: 'desk@hilltop.example',
        CATALOGUE_LIBRARY_NAME: 'Hilltop Library',
      },
    };
    servers = await Promise.all([startServer(options), startServer(options)]);
    database = await openDatabase({ kind: 'postgres', url: shared.url });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.close();
    await shared?.drop();
    await smtp?.stop();
  });

  it('each notice arrives once, and none is left sending after SIGTERM', async () => {
    const [a] = servers as [RunningServer, RunningServer];
    const user = await created<UserDocument>(
      await call(a, ADMIN_TOKEN, 'POST', '/users', { name: 'Hana Hilltop', role: 'member' }),
      'a member',
    );
    const db = (database as Database).db;
    await db.execute(sql`update users set email = 'hana@patrons.example' where id = ${user.id}`);
    await db.execute(sql`insert into account_entries (user_id, kind, amount, currency, reason)
      select ${user.id}, 'manual', n, 'EUR', 'charge ' || n from generate_series(1, ${CHARGES}) n`);

    const received = await smtp.waitFor(CHARGES, 60_000);
    await Promise.all(servers.map((server) => server.stop()));
    expect(received).toHaveLength(CHARGES);
    expect(new Set(received.map((mail) => mail.parsed.messageId)).size).toBe(CHARGES);
    expect(received[0]?.parsed.from?.value).toEqual([{ name: 'Hilltop Library', address: 'desk@hilltop.example' }]);
    const statuses = rowsOf<{ status: string; count: number }>(
      await db.execute(sql`select status, count(*)::int as count from notices group by status`),
    );
    expect(statuses).toEqual([{ status: 'sent', count: CHARGES }]);
  });
});
