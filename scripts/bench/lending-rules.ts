/**
 * @module Borrowing and returning with a lending rules matrix of 1,000 rules against the default rule alone:
 * two catalogues alike in everything but their rules (the second a copy of the first, `CREATE DATABASE …
 * TEMPLATE`, with the matrix added), each served by a server of its own, measured in interleaved rounds.
 * A librarian lends copies to members at varying branches and returns each loan at once, from several
 * clients at a time; pairs (a borrow and its return) per second and the server's CPU per pair are compared.
 */
import postgres from 'postgres';
import {
  adminStatement,
  benchToken,
  type Catalogue,
  catalogueEnv,
  databaseUrl,
  postgresCatalogue,
} from './catalogues.js';
import { catalogueEntry, cpuSecondsOf, type Server, startServer } from './processes.js';
import { median, round2 } from './stats.js';

/** With the matrix, at least this share of the pairs per second the default rule alone allows. */
export const LENDING_RULES_TARGET = 0.8;
/** Rules in the matrix, the default rule among them. */
export const LENDING_RULES_MATRIX = 1_000;
/** Books of the scenario's own catalogue (only some are lent; the rest make its tables a catalogue's). */
export const LENDING_RULES_BOOKS = 10_000;
/** Clients borrowing and returning at once, each for a borrower of their own. */
export const LENDING_RULES_CLIENTS = 16;
/** Books each client lends in turn, one copy each. */
const BOOKS_PER_CLIENT = 8;
/** Branches, patron categories and item types named by the matrix; each axis is these or "any". */
const PER_AXIS = 9;

const CONTENDERS = ['default rule', 'matrix'] as const;
type Contender = (typeof CONTENDERS)[number];

/** One run: every client borrowing and returning for the run's seconds. */
export interface LendingRun {
  pairsPerSecond: number;
  cpuMicrosPerPair: number;
}

export interface LendingContenderFigures {
  /** Medians of the runs. */
  pairsPerSecond: number;
  cpuMicrosPerPair: number;
  runs: LendingRun[];
}

export interface LendingRulesFigures {
  /** Rules of the matrix catalogue; the other has the default rule alone. */
  rules: number;
  clients: number;
  seconds: number;
  rounds: number;
  single: LendingContenderFigures;
  matrix: LendingContenderFigures;
  /** The matrix's pairs per second over the default rule's: the target's figure. */
  ratio: number;
  /** The matrix's server CPU per pair over the default rule's. */
  cpuRatio: number;
}

/** A client's part: whom it lends to, and the books it lends in turn. */
interface Client {
  borrowerId: number;
  bookIds: number[];
}

interface Setup {
  clients: Client[];
  branchIds: number[];
}

/**
 * Makes the two catalogues, serves each, warms both up, then measures `rounds` runs of each in turns whose
 * order alternates; stops the servers and drops the catalogues (unless kept).
 */
export async function measureLendingRules(
  settings: { serverUrl: string; keep: boolean; rounds: number; seconds: number; logDir: string },
  log: (line: string) => void,
): Promise<LendingRulesFigures> {
  log(`generating ${LENDING_RULES_BOOKS.toLocaleString('en')} books in bench_lending (the default rule alone)`);
  const single = await postgresCatalogue(settings.serverUrl, LENDING_RULES_BOOKS, settings.keep, 'bench_lending');
  const catalogues: Catalogue[] = [single];
  const servers = new Map<Contender, Server>();
  try {
    const setup = await setUpLending(single.env.DATABASE_URL);
    log(`copying it to bench_lending_matrix and adding a matrix of ${LENDING_RULES_MATRIX.toLocaleString('en')} rules`);
    const matrixUrl = databaseUrl(settings.serverUrl, 'bench_lending_matrix');
    await adminStatement(settings.serverUrl, 'drop database if exists bench_lending_matrix with (force)');
    await adminStatement(settings.serverUrl, 'create database bench_lending_matrix template bench_lending');
    catalogues.push({
      ...single,
      env: { DATABASE_URL: matrixUrl },
      drop: async () =>
        settings.keep
          ? undefined
          : adminStatement(settings.serverUrl, 'drop database if exists bench_lending_matrix with (force)'),
    });
    const rules = await addMatrix(matrixUrl);
    if (rules !== LENDING_RULES_MATRIX) throw new Error(`the matrix holds ${rules} rules, not ${LENDING_RULES_MATRIX}`);
    for (const [contender, url] of [
      ['default rule', single.env.DATABASE_URL],
      ['matrix', matrixUrl],
    ] as const) {
      servers.set(
        contender,
        await startServer({
          name: `lending-${contender.replace(' ', '-')}`,
          args: catalogueEntry('server'),
          env: { ...catalogueEnv, DATABASE_URL: url },
          readyPath: '/health',
          logDir: settings.logDir,
        }),
      );
    }
    const runs = new Map<Contender, LendingRun[]>(CONTENDERS.map((contender) => [contender, []]));
    for (const contender of CONTENDERS) await lendAndReturn(servers.get(contender) as Server, setup, 2);
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
      for (const contender of order) {
        const run = await lendAndReturn(servers.get(contender) as Server, setup, settings.seconds);
        runs.get(contender)?.push(run);
        log(
          `round ${round + 1} ${contender.padEnd(12)} ${Math.round(run.pairsPerSecond).toLocaleString('en').padStart(6)} borrow+return/s, ${run.cpuMicrosPerPair.toFixed(0)} µs server CPU per pair`,
        );
      }
    }
    const singleFigures = figuresOf(runs.get('default rule') ?? []);
    const matrixFigures = figuresOf(runs.get('matrix') ?? []);
    return {
      rules,
      clients: LENDING_RULES_CLIENTS,
      seconds: settings.seconds,
      rounds: settings.rounds,
      single: singleFigures,
      matrix: matrixFigures,
      ratio: round2(matrixFigures.pairsPerSecond / singleFigures.pairsPerSecond),
      cpuRatio: round2(matrixFigures.cpuMicrosPerPair / singleFigures.cpuMicrosPerPair),
    };
  } finally {
    for (const server of servers.values()) await server.stop();
    for (const catalogue of catalogues) await catalogue.drop();
  }
}

/**
 * Branches, patron categories and item types for the matrix to name (in both catalogues, so that they
 * differ in their rules alone), a borrower per client in one of the categories, and a copy of each of a
 * client's books of one of the item types on the shelf at one of the branches. The rules other than the
 * default go.
 */
async function setUpLending(url: string): Promise<Setup> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await sql.begin(async (tx) => {
      const axis = (table: string, prefix: string, label: string) =>
        tx.unsafe<{ id: number }[]>(
          `insert into ${table} (code, name)
           select 'bench-${prefix}' || n, '${label} ' || n from generate_series(1, ${PER_AXIS}) as n
           returning id`,
        );
      const branchIds = (await axis('branches', 'b', 'Branch')).map((row) => row.id);
      const categoryIds = (await axis('patron_categories', 'c', 'Category')).map((row) => row.id);
      const typeIds = (await axis('item_types', 't', 'Item type')).map((row) => row.id);
      await tx`delete from loan_rules where patron_category_id is not null or item_type_id is not null or branch_id is not null`;
      // Copies float: one returned at the branch that lent it stays on the shelf there for the client's next
      // turn, rather than travelling home (transit is not what this measures, and a copy in transit is not lent).
      await tx`update loan_rules set floating = true`;
      const clients: Client[] = [];
      for (let i = 0; i < LENDING_RULES_CLIENTS; i++) {
        const [borrower] = await tx<{ id: number }[]>`
          insert into users (name, role, patron_category_id, home_branch_id)
          values (${`Bench borrower ${i + 1}`}, 'member', ${categoryIds[i % PER_AXIS] as number}, ${branchIds[i % PER_AXIS] as number})
          returning id`;
        const bookIds: number[] = [];
        for (let j = 0; j < BOOKS_PER_CLIENT; j++) {
          const bookId = 1 + i * BOOKS_PER_CLIENT + j;
          const branchId = branchIds[(i + j) % PER_AXIS] as number;
          await tx`insert into copies (book_id, branch_id, location_branch_id, item_type_id)
            values (${bookId}, ${branchId}, ${branchId}, ${typeIds[j % PER_AXIS] as number})`;
          bookIds.push(bookId);
        }
        clients.push({ borrowerId: (borrower as { id: number }).id, bookIds });
      }
      await tx`select settle_circulation(id, 7, now()) from books where id <= ${LENDING_RULES_CLIENTS * BOOKS_PER_CLIENT}`;
      return { clients, branchIds };
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Every combination of (a category, an item type, a branch), each named or "any": 10 × 10 × 10 with the
 * default rule. Each kind of scope sets other values, so that a decision takes them from several rules:
 * the most specific the loan period, a category and type the fine, a category alone the cap, a type alone
 * when it is lost, a branch alone the renewals.
 */
async function addMatrix(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into loan_rules (patron_category_id, item_type_id, branch_id, loan_period, loan_period_unit,
        fine_per_day, grace_days, max_loans, lost_after_days, lost_charge, renewals_allowed)
      select c.id, t.id, b.id,
        case when c.id is not null and t.id is not null then 7 + (c.id + t.id + coalesce(b.id, 0)) % 21 end,
        case when c.id is not null and t.id is not null then 'days' end,
        case when c.id is not null and t.id is not null and b.id is null then 10 + t.id % 40 end,
        case when c.id is not null and t.id is not null and b.id is null then 1 end,
        case when c.id is not null and t.id is null then 50 end,
        case when c.id is null and t.id is not null then 30 + t.id % 60 end,
        case when c.id is null and t.id is not null then 1500 end,
        case when c.id is null and t.id is null then 1 + b.id % 5 end
      from (select id from patron_categories where code like 'bench-c%' union all select null) as c (id)
        cross join (select id from item_types where code like 'bench-t%' union all select null) as t (id)
        cross join (select id from branches where code like 'bench-b%' union all select null) as b (id)
      where c.id is not null or t.id is not null or b.id is not null`;
    await sql`analyze loan_rules`;
    const [row] = await sql<{ rules: number }[]>`select count(*)::int as rules from loan_rules`;
    return row?.rules ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Every client lends its books in turn to its borrower, at the branches in turn, and returns each loan at
 * once, until `seconds` have passed; the server's CPU over the same span. Any answer but 201 then 200 fails.
 */
async function lendAndReturn(server: Server, setup: Setup, seconds: number): Promise<LendingRun> {
  const headers = {
    accept: 'application/json',
    'content-type': 'application/json',
    authorization: `Bearer ${benchToken}`,
  };
  const cpuBefore = cpuSecondsOf(server.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  let pairs = 0;
  await Promise.all(
    setup.clients.map(async (client, i) => {
      for (let turn = 0; performance.now() < until; turn++) {
        const bookId = client.bookIds[turn % client.bookIds.length] as number;
        const branchId = setup.branchIds[(i + turn) % setup.branchIds.length] as number;
        const lent = await fetch(`${server.url}/books/${bookId}/borrow`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ borrower_id: client.borrowerId, branch_id: branchId }),
        });
        const answer = await lent.text();
        const location = lent.headers.get('location');
        if (lent.status !== 201 || !location) {
          throw new Error(`POST /books/${bookId}/borrow answered ${lent.status}: ${answer.slice(0, 300)}`);
        }
        // The loan's path, asked of this server whatever origin the catalogue names in its URIs.
        const returned = await fetch(`${server.url}${new URL(location, server.url).pathname}`, {
          method: 'PATCH',
          headers,
          body: '{"status":"returned"}',
        });
        await returned.arrayBuffer();
        if (returned.status !== 200) throw new Error(`PATCH ${location} answered ${returned.status}`);
        pairs++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSecondsOf(server.pid) - cpuBefore;
  return { pairsPerSecond: pairs / elapsed, cpuMicrosPerPair: (cpu * 1e6) / pairs };
}

function figuresOf(runs: LendingRun[]): LendingContenderFigures {
  return {
    pairsPerSecond: Math.round(median(runs.map((run) => run.pairsPerSecond))),
    cpuMicrosPerPair: Math.round(median(runs.map((run) => run.cpuMicrosPerPair))),
    runs: runs.map((run) => ({
      pairsPerSecond: Math.round(run.pairsPerSecond),
      cpuMicrosPerPair: Math.round(run.cpuMicrosPerPair),
    })),
  };
}
