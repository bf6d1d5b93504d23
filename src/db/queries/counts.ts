/**
 * @module How many items a listing has, without reading them all: counters kept by triggers for whole
 * collections and for books by author and by year, a count that stops at the listing's limit for filtered ones, and above that limit the
 * planner's estimate, marked as such.
 */
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { authorBookCounts, collectionCounts, yearBookCounts } from '../schema/index.js';

/** A listing's total: exact, or an estimate (never below the limit it exceeded). */
export interface Total {
  n: number;
  estimated: boolean;
}

/** Every row of a counted collection: the sum of its few shards (see the `listing_counts` migration). */
export function collectionCount(collection: 'books' | 'authors'): SQL {
  return sql`select coalesce(sum(${collectionCounts.n}), 0)::float8 from ${collectionCounts} where ${collectionCounts.collection} = ${collection}`;
}

/** An author's books. */
export function authorBookCount(authorId: number): SQL {
  return authorsBookCount([authorId]);
}

/** The books of any of these authors (as many as `author=` may name: one array, not a parameter each). */
export function authorsBookCount(authorIds: number[]): SQL {
  return sql`select coalesce(sum(${authorBookCounts.n}), 0)::float8 from ${authorBookCounts} where ${authorBookCounts.authorId} = any(${sql.param(authorIds)}::integer[])`;
}

/** The books published in any of these years. */
export function yearsBookCount(years: number[]): SQL {
  return sql`select coalesce(sum(${yearBookCounts.n}), 0)::float8 from ${yearBookCounts} where ${inArray(yearBookCounts.publicationYear, years)}`;
}

/** A counter's value (one of the queries above). */
export async function readCounter(db: Db, counter: SQL): Promise<Total> {
  return { n: Number(firstValue(await db.execute(counter))), estimated: false };
}

/** How many rows match, up to `limit + 1`, as a scalar subquery: its cost is bounded by the limit. */
function matchesUpTo(db: Db, from: PgTable, where: SQL | undefined, limit: number): SQL {
  return sql`(select count(*) from (${db
    .select({ one: sql`1` })
    .from(from)
    .where(where)
    .limit(limit + 1)}) as matching)`;
}

/**
 * How many rows match, counting no further than `limit + 1`. A `subset` of the matches is counted first,
 * in the same statement: past the limit, it proves the whole is too (the answer is then `limit + 1`), and
 * the whole is never counted (a CASE runs its ELSE's subquery only when it gets there).
 */
export async function countUpTo(
  db: Db,
  from: PgTable,
  where: SQL | undefined,
  limit: number,
  subset?: SQL,
): Promise<number> {
  const whole = matchesUpTo(db, from, where, limit);
  const count = subset
    ? sql`case when ${matchesUpTo(db, from, subset, limit)} > ${limit} then ${limit + 1} else ${whole} end`
    : whole;
  return Number(firstValue(await db.execute(sql`select (${count})::int as n`)) ?? 0);
}

/** A listing's total, and earlier, whether it is within the limit (which decides whether a search is ranked). */
export interface Counting {
  withinLimit: Promise<boolean>;
  /**
   * Before the count is done, whether the planner expects so many more rows than the limit that the count
   * will surely exceed it (`FAR_BEYOND`): the unranked page may then be read while they are counted.
   */
  farBeyondLimit: Promise<boolean>;
  total: Promise<Total>;
}

/**
 * The planner expecting this many times the limit is taken to mean the count will exceed it. A wrong
 * guess costs one read of the unranked page more, never a wrong answer: the count still decides.
 */
const FAR_BEYOND = 2;

/**
 * Counts the matching rows up to `limit`; past it, the planner's estimate (statistics, no scan) is the
 * total, so the cost is bounded by the limit whatever the catalogue's size. The planner is asked alongside
 * the count, when `estimateAtOnce` (a search deciding whether to rank): its guess is then known before the
 * count (`farBeyondLimit`); otherwise only once the count exceeds the limit.
 *
 * `subset`, a condition matching some of the rows `where` matches, is counted first: past the limit, it
 * proves the whole is too (`countUpTo`). A search's last word matched as a prefix (`'hous':*`) reads,
 * in the full-text index, the postings of every word it begins, all of them (a hundred thousand at 1M
 * books); the same word matched whole lets the index skip to the rarer word's matches.
 */
export function boundedCount(
  db: Db,
  from: PgTable,
  where: SQL | undefined,
  limit: number,
  { estimateAtOnce = false, subset }: { estimateAtOnce?: boolean; subset?: SQL } = {},
): Counting {
  const counted = countUpTo(db, from, where, limit, subset);
  const estimate = () => estimatedRows(db, from, where);
  const early = estimateAtOnce ? estimate() : undefined;
  const total = counted.then(async (n): Promise<Total> => {
    if (n <= limit) return { n, estimated: false };
    return { n: Math.max(await (early ?? estimate()), limit + 1), estimated: true };
  });
  return handled({
    withinLimit: counted.then((n) => n <= limit),
    farBeyondLimit: early ? early.then((rows) => rows >= FAR_BEYOND * limit) : Promise.resolve(false),
    total,
  });
}

/** How many rows the planner expects `where` to match. */
async function estimatedRows(db: Db, from: PgTable, where: SQL | undefined): Promise<number> {
  const matching = db.select({ one: sql`1` }).from(from).where(where);
  const plan = planOf(await db.execute(sql`explain (format json) ${matching}`));
  return Math.round(plan?.Plan?.['Plan Rows'] ?? 0);
}

/** A total known at once (a counter's), in the shape of a bounded count. */
export function countedTotal(total: Promise<Total>, limit: number): Counting {
  const withinLimit = total.then(({ n, estimated }) => !estimated && n <= limit);
  return handled({ withinLimit, farBeyondLimit: withinLimit.then((within) => !within), total });
}

/**
 * A caller may await only some of them (a failed count fails all): none may surface later as an unhandled
 * rejection that ends the process.
 */
function handled(counting: Counting): Counting {
  for (const promise of [counting.withinLimit, counting.farBeyondLimit, counting.total]) promise.catch(() => {});
  return counting;
}

interface Plan {
  Plan?: { 'Plan Rows'?: number };
}

/** EXPLAIN's JSON, parsed or not depending on the driver. */
function planOf(result: unknown): Plan | undefined {
  const value = firstValue(result);
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed[0] : undefined;
}

/** The first column of the first row, whichever driver answered (postgres.js: rows; PGlite: `{ rows }`). */
function firstValue(result: unknown): unknown {
  const [row] = rowsOf<Record<string, unknown>>(result);
  return row === undefined ? undefined : Object.values(row)[0];
}
