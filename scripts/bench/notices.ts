/**
 * @module Notices by email at a library's scale: a catalogue of its own (`bench_notices`) with 100,000
 * pending notices, queued as the library queues them (charges written in SQL; their trigger writes each
 * one's notice in the same statement), and the sender in a process of its own
 * (scripts/bench/notices-sender.ts) sending a share of them to an SMTP server in this process that accepts
 * every message and keeps none. It reports emails per second and its peak RSS over idle.
 */
import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { SMTPServer } from 'smtp-server';
import { catalogueEnv, postgresCatalogue } from './catalogues.js';
import { freePort, repoRoot, SERVER_FLAGS } from './processes.js';
import { round2 } from './stats.js';

/** Emails per second, at least. */
export const NOTICES_RATE_TARGET = 200;
/** Peak RSS of the sender's process over its idle RSS, at most (MiB), with NOTICES_PENDING pending. */
export const NOTICES_GROWTH_TARGET_MIB = 64;
/** Notices pending when the sender starts. */
export const NOTICES_PENDING = 100_000;
/** Of which the sender sends this many (the rest stay pending throughout), timed. */
export const NOTICES_SENT = 10_000;
/** Patrons the notices are addressed to. */
export const NOTICES_PATRONS = 1_000;
/** Books of the catalogue (the notices are of charges: the books only make it a catalogue). */
const BOOKS = 1_000;

export interface NoticesFigures {
  pending: number;
  sent: number;
  /** Messages the SMTP server took: the sender's count, checked. */
  received: number;
  seconds: number;
  emailsPerSecond: number;
  idleRssMiB: number;
  peakRssMiB: number;
  growthMiB: number;
}

/** Generates the catalogue and its notices, sends some of them once, drops the catalogue (unless kept). */
export async function measureNotices(
  settings: { serverUrl: string; keep: boolean },
  log: (line: string) => void,
): Promise<NoticesFigures> {
  log(`generating ${BOOKS.toLocaleString('en')} books in bench_notices`);
  const catalogue = await postgresCatalogue(settings.serverUrl, BOOKS, settings.keep, 'bench_notices');
  const smtp = await discardingSmtpServer();
  try {
    log(
      `charging ${NOTICES_PATRONS.toLocaleString('en')} patrons: ${NOTICES_PENDING.toLocaleString('en')} notices pending`,
    );
    const pending = await queueChargeNotices(catalogue.env.DATABASE_URL);
    if (pending !== NOTICES_PENDING) throw new Error(`${pending} notices are pending, not ${NOTICES_PENDING}`);
    log(`sending ${NOTICES_SENT.toLocaleString('en')} of them to an SMTP server that discards what it takes`);
    const run = await runSender(catalogue.env.DATABASE_URL, smtp.url);
    if (run.sent < NOTICES_SENT) throw new Error(`the sender sent ${run.sent} notices, not ${NOTICES_SENT}`);
    if (smtp.received() !== run.sent) throw new Error(`the server took ${smtp.received()} messages, not ${run.sent}`);
    const mib = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    return {
      pending,
      sent: run.sent,
      received: smtp.received(),
      seconds: round2(run.seconds),
      emailsPerSecond: Math.round(run.sent / run.seconds),
      idleRssMiB: mib(run.idle),
      peakRssMiB: mib(run.peak),
      growthMiB: mib(run.peak - run.idle),
    };
  } finally {
    await smtp.stop();
    await catalogue.drop();
  }
}

/**
 * Patrons with addresses, and a manual charge for each notice, in one statement: the charges' trigger
 * queues a `charged` notice for each, pending at once, as a librarian's charge does.
 */
async function queueChargeNotices(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into users (name, role, email)
      select 'Notices reader ' || n, 'member', 'reader' || n || '@patrons.example'
      from generate_series(1, ${NOTICES_PATRONS}) as n`;
    await sql`insert into account_entries (user_id, kind, amount, currency, reason)
      select r.id, 'manual', 100 + n % 900, 'EUR', 'a lost library card'
      from generate_series(0, ${NOTICES_PENDING - 1}) as n
        join (select id, row_number() over (order by id) - 1 as i from users where name like 'Notices reader %') as r
          on r.i = n % ${NOTICES_PATRONS}`;
    await sql`vacuum analyze notices`;
    const [row] = await sql<
      { pending: number }[]
    >`select count(*)::int as pending from notices where status = 'pending'`;
    return row?.pending ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

interface SenderRun {
  sent: number;
  seconds: number;
  idle: number;
  peak: number;
}

/** Runs scripts/bench/notices-sender.ts, with V8's flags of the server (whose sender it is), and reads its figures. */
async function runSender(url: string, smtpUrl: string): Promise<SenderRun> {
  const args = [...SERVER_FLAGS, '--import', 'tsx', `${repoRoot}scripts/bench/notices-sender.ts`];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...catalogueEnv,
      DATABASE_URL: url,
      CATALOGUE_SMTP_URL: smtpUrl,
      NOTICES_SEND: String(NOTICES_SENT),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => {
    printed += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the notices sender failed (exit ${code})`);
  return JSON.parse(printed.trim().split('\n').pop() ?? '{}') as SenderRun;
}

/** An SMTP server on a port of its own that takes every message, reads it to its end, and keeps none. */
async function discardingSmtpServer(): Promise<{ url: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received++;
        callback();
      });
      stream.resume();
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
