/**
 * @module The lost-items job over a million overdue loans: a catalogue of its own (`bench_lost`) whose loans
 * are generated in SQL, all past their `lost_after_days`, then one run of the job in a process of its own
 * (scripts/bench/lost-loans-job.ts), which reports loans declared per second and its peak RSS over idle.
 */
import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { catalogueEnv, postgresCatalogue } from './catalogues.js';
import { repoRoot, SERVER_FLAGS } from './processes.js';
import { round2 } from './stats.js';

/** Loans declared per second, at least. */
export const LOST_LOANS_RATE_TARGET = 20_000;
/** Peak RSS of the job's process over its idle RSS, at most (MiB). */
export const LOST_LOANS_GROWTH_TARGET_MIB = 64;
/** Overdue loans generated. */
export const LOST_LOANS = 1_000_000;
/** Books of the catalogue; each has LOST_LOANS / LOST_LOANS_BOOKS copies, each copy lent. */
export const LOST_LOANS_BOOKS = 10_000;
/** Borrowers the loans are spread over (a book's copies go to different ones). */
const BORROWERS = 1_000;

export interface LostLoansFigures {
  loans: number;
  lostItemCharges: number;
  overdueFines: number;
  seconds: number;
  loansPerSecond: number;
  idleRssMiB: number;
  peakRssMiB: number;
  growthMiB: number;
}

/** Generates the catalogue and its loans, runs the job once, drops the catalogue (unless kept). */
export async function measureLostLoans(
  settings: { serverUrl: string; keep: boolean },
  log: (line: string) => void,
): Promise<LostLoansFigures> {
  log(`generating ${LOST_LOANS_BOOKS.toLocaleString('en')} books in bench_lost`);
  const catalogue = await postgresCatalogue(settings.serverUrl, LOST_LOANS_BOOKS, settings.keep, 'bench_lost');
  try {
    const at = new Date();
    log(`lending ${LOST_LOANS.toLocaleString('en')} copies, all due 46 days ago and lost after 30`);
    await generateOverdueLoans(catalogue.env.DATABASE_URL, at);
    log('declaring them lost: one run of the job');
    const run = await runJob(catalogue.env.DATABASE_URL, at);
    if (run.loans !== LOST_LOANS) throw new Error(`the job declared ${run.loans} loans lost, not ${LOST_LOANS}`);
    const mib = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    return {
      loans: run.loans,
      lostItemCharges: run.lostItemCharges,
      overdueFines: run.overdueFines,
      seconds: round2(run.seconds),
      loansPerSecond: Math.round(run.loans / run.seconds),
      idleRssMiB: mib(run.idle),
      peakRssMiB: mib(run.peak),
      growthMiB: mib(run.peak - run.idle),
    };
  } finally {
    await catalogue.drop();
  }
}

/**
 * Members, a copy per loan and the loans, in SQL, with the triggers off for the session (a generator's
 * rows, not the library's events): each loan lent 60 days before `at` for 14 days under terms of 0.20 a
 * day after 2 days of grace, capped at 10.00, lost after 30 days for 25.00.
 */
async function generateOverdueLoans(url: string, at: Date): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const copiesPerBook = LOST_LOANS / LOST_LOANS_BOOKS;
  try {
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`insert into users (name, role) select 'Lost loans reader ' || n, 'member' from generate_series(1, ${BORROWERS}) as n`;
      // Books may have a copy already (the generator's first copy); only the copies made here are lent.
      const [before] = await tx<{ last: number }[]>`select coalesce(max(id), 0)::int as last from copies`;
      await tx`insert into copies (book_id, branch_id, item_type_id)
        select b.id, default_branch(), default_item_type()
        from books as b cross join generate_series(1, ${copiesPerBook}) as n order by b.id, n`;
      // A book's copies go to consecutive readers: nobody borrows two copies of one book.
      await tx`
        with readers as (
          select id, row_number() over (order by id) - 1 as n from users where name like 'Lost loans reader %'
        ), lent as (
          select c.id as copy_id, c.book_id,
            (c.book_id * 7 + row_number() over (partition by c.book_id order by c.id)) % ${BORROWERS} as n
          from copies as c where c.id > ${before?.last ?? 0}
        )
        insert into loans (book_id, borrower_id, copy_id, branch_id, borrowed_at, due_at, loan_period, loan_period_unit,
          renewals_allowed, fine_per_day, grace_days, fine_cap, lost_after_days, lost_charge, floating)
        select lent.book_id, readers.id, lent.copy_id, default_branch(),
          ${at.toISOString()}::timestamptz - interval '60 days', ${at.toISOString()}::timestamptz - interval '46 days',
          14, 'days', 2, 20, 2, 1000, 30, 2500, false
        from lent join readers on readers.n = lent.n`;
    });
    await sql`vacuum analyze loans`;
    await sql`checkpoint`.catch(() => undefined);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

interface JobRun {
  loans: number;
  lostItemCharges: number;
  overdueFines: number;
  seconds: number;
  idle: number;
  peak: number;
}

/**
 * Runs scripts/bench/lost-loans-job.ts on the catalogue, with V8's flags of the server (whose hourly sweep
 * runs the job), and answers the figures it printed.
 */
async function runJob(url: string, at: Date): Promise<JobRun> {
  const args = [...SERVER_FLAGS, '--import', 'tsx', `${repoRoot}scripts/bench/lost-loans-job.ts`];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...catalogueEnv, DATABASE_URL: url, LOST_LOANS_AT: at.toISOString() },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => {
    printed += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the lost-loans job failed (exit ${code})`);
  return JSON.parse(printed.trim().split('\n').pop() ?? '{}') as JobRun;
}
