/**
 * @module Declaring overdue loans lost: every active loan whose terms set `lost_after_days`, that many days
 * past due, gets `lost_at` and is charged its `lost_charge` and its overdue fine up to then, into the
 * borrower's account (docs/access-and-loans.md, "Lost items"). Batches by id, each one transaction, so a
 * million loans take the memory of a batch per worker; running it again changes nothing.
 */
import { and, asc, gt, lte, max, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { BranchCalendar } from '../../domain/calendar.js';
import { overdueFine } from '../../domain/fines.js';
import { money } from '../../domain/money.js';
import type { Db } from '../client.js';
import { accountEntries, loans } from '../schema/index.js';
import { findBranchCalendar } from './branch-calendars.js';
import { businessTime, isoTimestamp } from './sql.js';

export interface DeclareLostParams {
  /** Business time: loans due `lost_after_days` days before it or earlier are lost at it. */
  at: Date;
  /** The library's time zone, in which fines count open days. */
  timeZone: string;
  /** The library's currency: the charges' (and the accounts'). */
  currency: string;
  /** Loans per transaction. */
  batchSize?: number;
  /**
   * Batches at once, each worker on its own connection and its own share of the borrowers (by id modulo
   * `workers`): the database's work is most of the job's, and one transaction at a time keeps one core busy.
   */
  workers?: number;
}

export interface DeclaredLost {
  /** Loans declared lost by this run. */
  loans: number;
  /** Of their charges, the lost items' (a `lost_charge` of 0 charges nothing)… */
  lostItemCharges: number;
  /** …and the overdue fines (nothing when the fine is 0). */
  overdueFines: number;
}

export const LOST_BATCH_SIZE = 5_000;
/** Batches declared at once by default. */
export const LOST_WORKERS = 2;
/**
 * A batch reads loans in a window of this many ids times the batch size times the workers. The planner cannot
 * estimate the share (`borrower_id % workers`) or the due date plus `lost_after_days`, and takes them for a
 * few rows: asked for the first loans past an id with no upper bound, it reads and sorts the whole table
 * rather than walk `loans_may_be_lost_idx`, for about the first quarter of the run. An id range it can
 * estimate keeps every batch an index range scan (docs/performance/lost-loans.md).
 */
const WINDOW_BATCHES = 4;

/** The predicate of `loans_may_be_lost_idx`: active loans whose terms name a limit. */
const mayBeLostIndexed = sql`${loans.returnedAt} is null and ${loans.lostAfterDays} is not null`;
/**
 * An active loan not declared lost whose terms name a limit. The job walks `loans_may_be_lost_idx` and reads
 * past the lost ones: `lost_at` in no index keeps stamping it a HOT update.
 */
const mayBeLost = sql`${mayBeLostIndexed} and ${loans.lostAt} is null`;

/**
 * Declares lost every loan `lost_after_days` past due at `at`, `workers` at once, each in batches of its
 * borrowers' loans by id (keyset), each batch one transaction: its loans locked (a loan another transaction
 * holds, being returned, is left to the next run), its charges inserted in one statement, then its loans
 * stamped. The charges come first, so that a batch takes the accounts' rows before the change feed's lock,
 * in the order a return does.
 * Idempotent: a loan is declared once (`lost_at is null`), and charged once per kind (the entries' unique
 * index on loan and kind).
 */
export async function declareLostLoans(db: Db, params: DeclareLostParams): Promise<DeclaredLost> {
  // In a caller's transaction every batch is a savepoint of its one connection: one at a time.
  const workers = db instanceof PgTransaction ? 1 : (params.workers ?? LOST_WORKERS);
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be 1 or more, not ${workers}`);
  const declared: DeclaredLost = { loans: 0, lostItemCharges: 0, overdueFines: 0 };
  // The last loan that may be lost now; one lent while the run goes on is left to the next run.
  const [last] = await db
    .select({ id: max(loans.id) })
    .from(loans)
    .where(mayBeLostIndexed);
  const upTo = last?.id;
  if (upTo == null) return declared;
  // A worker that fails stops the others after their batch; the failure is answered once none is running.
  const run: Run = { calendars: new Map(), declared, failed: false };
  const shares = await Promise.allSettled(
    Array.from({ length: workers }, (_, share) =>
      declareShare(db, params, { share, of: workers, upTo }, run).catch((error: unknown) => {
        run.failed = true;
        throw error;
      }),
    ),
  );
  const failed = shares.find((share) => share.status === 'rejected');
  if (failed) throw failed.reason;
  return declared;
}

/** What a run's workers share: the branches' calendars read so far, the counts, whether one has failed. */
interface Run {
  calendars: Map<number, BranchCalendar>;
  declared: DeclaredLost;
  failed: boolean;
}

/**
 * One worker's batches: the loans of borrowers whose id is `share` modulo `of`, up to loan `upTo`, a window of
 * ids at a time (a window's loans may take more than one batch). Workers never lock one account between them
 * (a batch's charges update its borrowers' accounts), so they only ever wait for one another at the change
 * feed's lock, which each takes last and holds until it commits: no cycle to deadlock.
 */
async function declareShare(
  db: Db,
  params: DeclareLostParams,
  worker: { share: number; of: number; upTo: number },
  run: Run,
): Promise<void> {
  const { calendars, declared } = run;
  const batchSize = params.batchSize ?? LOST_BATCH_SIZE;
  const window = batchSize * worker.of * WINDOW_BATCHES;
  let after = 0;
  let windowEnd = 0;
  while (!run.failed && after < worker.upTo) {
    if (after >= windowEnd) windowEnd = after + window;
    const batch = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          id: loans.id,
          borrowerId: loans.borrowerId,
          branchId: loans.branchId,
          dueAt: isoTimestamp(loans.dueAt),
          finePerDay: loans.finePerDay,
          graceDays: loans.graceDays,
          fineCap: loans.fineCap,
          lostCharge: loans.lostCharge,
        })
        .from(loans)
        .where(
          and(
            mayBeLost,
            gt(loans.id, after),
            lte(loans.id, windowEnd),
            sql`${loans.borrowerId} % ${worker.of} = ${worker.share}`,
            sql`${loans.dueAt} + make_interval(days => ${loans.lostAfterDays}) <= ${businessTime(params.at)}`,
          ),
        )
        .orderBy(asc(loans.id))
        .limit(batchSize)
        .for('no key update', { skipLocked: true });
      if (due.length === 0) return { size: 0, last: after };
      const userIds: number[] = [];
      const kinds: string[] = [];
      const amounts: number[] = [];
      const loanIds: number[] = [];
      const charge = (loan: (typeof due)[number], kind: 'lost_item' | 'overdue_fine', amount: number) => {
        if (amount <= 0) return;
        userIds.push(loan.borrowerId);
        kinds.push(kind);
        amounts.push(amount);
        loanIds.push(loan.id);
      };
      const fineOf = async (loan: (typeof due)[number]): Promise<number> => {
        let calendar = calendars.get(loan.branchId);
        if (!calendar) {
          calendar = await findBranchCalendar(tx, { branchId: loan.branchId, timeZone: params.timeZone });
          if (!calendar) throw new Error(`loan ${loan.id} names branch ${loan.branchId}, which is not there`);
          calendars.set(loan.branchId, calendar);
        }
        const fine = overdueFine(
          {
            finePerDay: money(loan.finePerDay, params.currency),
            graceDays: loan.graceDays,
            fineCap: loan.fineCap === null ? 'none' : money(loan.fineCap, params.currency),
          },
          new Date(loan.dueAt),
          params.at,
          calendar,
        );
        return fine.amount.minor;
      };
      // Loans of one branch due at one instant under the same terms owe the same fine: it is worked out once
      // a batch (counting a loan's open days is most of the job's own time otherwise).
      const fines = new Map<string, number>();
      for (const loan of due) {
        const terms = `${loan.branchId} ${loan.dueAt} ${loan.finePerDay} ${loan.graceDays} ${loan.fineCap}`;
        let fine = fines.get(terms);
        if (fine === undefined) {
          fine = await fineOf(loan);
          fines.set(terms, fine);
        }
        charge(loan, 'lost_item', loan.lostCharge);
        charge(loan, 'overdue_fine', fine);
      }
      // One statement for the batch's charges. A plain insert: these loans, locked and not yet lost, have
      // none of these charges (a returned loan is no longer active), and the unique index on (loan, kind)
      // would refuse a second rather than let it pass.
      if (loanIds.length > 0) {
        await tx.execute(sql`insert into ${accountEntries} (user_id, kind, amount, currency, loan_id, created_at)
          select e.user_id, e.kind, e.amount, ${params.currency}, e.loan_id, ${businessTime(params.at)}
          from unnest(${sql.param(userIds)}::integer[], ${sql.param(kinds)}::text[],
            ${sql.param(amounts)}::integer[], ${sql.param(loanIds)}::integer[]) as e (user_id, kind, amount, loan_id)`);
      }
      const ids = due.map((loan) => loan.id);
      await tx
        .update(loans)
        .set({ lostAt: params.at })
        .where(sql`${loans.id} = any(${sql.param(ids)}::integer[])`);
      declared.loans += due.length;
      for (const kind of kinds) {
        if (kind === 'lost_item') declared.lostItemCharges++;
        else declared.overdueFines++;
      }
      return { size: due.length, last: ids[ids.length - 1] as number };
    });
    // A full batch may have left loans in its window; one short of full has read its window to the end.
    after = batch.size < batchSize ? windowEnd : batch.last;
  }
}
