/**
 * @module The statements of a listing's reads, as its plan (`listing-plan.ts`) orders them: its order keys
 * as SQL, a read from the start (or the end) by offset, and a keyset read beyond a cursor's row as the union
 * of one index range per key.
 */
import { and, asc, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { KeyValue } from '../../domain/cursor.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { type KeyRange, type PlannedKey, rangesBeyond, tiersFromStart } from './listing-plan.js';

/** One order key as SQL: its expression and, for a tier key, each tier's condition (`undefined`: no row has it). */
export type OrderKey = PlannedKey & { expr: SQL | PgColumn; conditions?: (SQL | undefined)[] };

/** The tier key of an unranked search: 0 for the items it names exactly (`ids`), 1 for the others. */
export function tierExpression(id: PgColumn, ids: number[]): Pick<OrderKey, 'expr' | 'conditions'> {
  if (ids.length === 0) return { expr: sql`1`, conditions: [undefined, sql`true`] };
  const named = sql`${id} = any(${sql.param(ids)}::integer[])`;
  return { expr: sql`(case when ${named} then 0 else 1 end)`, conditions: [named, sql`not (${named})`] };
}

/** What a read selects: the table's selection, and each hidden key's value under its column's name. */
export function selectionOf(selection: SelectedFields, keys: OrderKey[]): SelectedFields {
  const hidden = keys.filter((key) => key.hidden);
  if (hidden.length === 0) return selection;
  const selected: SelectedFields = { ...selection };
  // A field's own column is hidden where the selection does not read it (a stream's rows as JSON text).
  for (const key of hidden) selected[key.column] = sql`${key.expr}`.as(key.column);
  return selected;
}

/** The rows without the hidden columns of their order keys; the rows themselves when there are none. */
export function withoutHidden(rows: Record<string, unknown>[], keys: OrderKey[]): Record<string, unknown>[] {
  const hidden = keys.filter((key) => key.hidden).map((key) => key.column);
  if (hidden.length === 0) return rows;
  return rows.map((row) => {
    const rest = { ...row };
    for (const column of hidden) delete rest[column];
    return rest;
  });
}

/** A row's values of the order keys, as a cursor carries them. */
export function keysOf(keys: OrderKey[], row: Record<string, unknown>): KeyValue[] {
  return keys.map((key) => row[key.column] as KeyValue);
}

/**
 * The rank is ordered by its output column, which every read selects: written out again, with parameters
 * of its own, PostgreSQL would not see it is the same expression and would score every match twice.
 */
function orderBy(keys: OrderKey[], backwards: boolean): SQL[] {
  return keys.map((key) =>
    (key.descending !== backwards ? desc : asc)(key.source === 'rank' ? sql.identifier(key.column) : key.expr),
  );
}

/** A read in a listing's order (or, backwards, against it): which rows, in which order, how many. */
export interface OrderedRead {
  from: PgTable;
  selection: SelectedFields;
  where: SQL | undefined;
  keys: OrderKey[];
  backwards: boolean;
  limit: number;
}

/** One query of a read: its rows that also meet `conditions`, in the order of `order`, the first `limit`. */
function orderedSelect(db: Db, read: OrderedRead, conditions: (SQL | undefined)[], order: OrderKey[], limit: number) {
  return db
    .select(read.selection)
    .from(read.from)
    .where(and(read.where, ...conditions))
    .orderBy(...orderBy(order, read.backwards))
    .limit(limit);
}

/** The first `limit` rows after `offset` of a listing in its order (or, backwards, the last). */
export function readFromStart(db: Db, read: OrderedRead & { offset: number }): Promise<Record<string, unknown>[]> {
  const { keys, backwards, limit, offset } = read;
  const [first, ...rest] = keys;
  const tiers = tiersFromStart(keys, backwards);
  if (!first || !tiers) {
    return orderedSelect(db, read, [], keys, limit).offset(offset) as unknown as Promise<Record<string, unknown>[]>;
  }
  // Each tier as far as the page could reach into it, in the order of the keys after it.
  const branches = tiers.map((tier) => orderedSelect(db, read, [first.conditions?.[tier]], rest, limit + offset));
  return readUnion(db, branches, keys, backwards, limit, offset);
}

/** The branches' rows, each branch in the listing's order, merged into it: `limit` rows after `offset`. */
async function readUnion(
  db: Db,
  branches: SQLWrapper[],
  keys: OrderKey[],
  backwards: boolean,
  limit: number,
  offset = 0,
): Promise<Record<string, unknown>[]> {
  // The union is ordered again by the output columns (named as the API names the fields).
  const outer = keys.map(
    (key) => sql`${sql.identifier(key.column)} ${sql.raw(key.descending !== backwards ? 'desc' : 'asc')}`,
  );
  const union = sql.join(
    branches.map((branch) => sql`(${branch})`),
    sql` union all `,
  );
  const skip = offset > 0 ? sql` offset ${offset}` : sql``;
  const result = await db.execute(
    sql`select * from (${union}) as beyond order by ${sql.join(outer, sql`, `)} limit ${limit}${skip}`,
  );
  return rowsOf<Record<string, unknown>>(result);
}

/**
 * The first `limit` rows after (or, walking backwards, before) the row with the given key values, in the
 * listing's order: one branch per range of `rangesBeyond`, each read only as far as the limit.
 */
export async function readBeyond(
  db: Db,
  read: OrderedRead & { values: KeyValue[] },
): Promise<Record<string, unknown>[]> {
  const { keys, values, backwards, limit } = read;
  const value = (i: number) => (keys[i]?.source === 'rank' ? sql`${values[i]}::real` : sql`${values[i]}`);
  // Equal to the boundary row on key j: a tier's own condition, else the key's value.
  const equal = (j: number) => {
    const key = keys[j] as OrderKey;
    return key.conditions ? tierOf(key, values[j]) : sql`${key.expr} = ${value(j)}`;
  };
  const beyond = ({ key: i, beyond }: KeyRange) => {
    const key = keys[i] as OrderKey;
    if ('tier' in beyond) return key.conditions?.[beyond.tier];
    return beyond.past === '>' ? sql`${key.expr} > ${value(i)}` : sql`${key.expr} < ${value(i)}`;
  };
  const branches = rangesBeyond(keys, values, backwards).map((range) =>
    orderedSelect(db, read, [...range.equal.map(equal), beyond(range)], keys.slice(range.orderFrom), limit),
  );
  return readUnion(db, branches, keys, backwards, limit);
}

/** The condition of a tier key's value (checked, where a cursor gave it, against the key's type). */
function tierOf(key: OrderKey, value: KeyValue | undefined): SQL {
  const conditions = key.conditions ?? [];
  if (typeof value !== 'number' || value < 0 || value >= conditions.length) {
    throw new Error(`no tier ${String(value)} in the listing's order`);
  }
  // A tier no row has now (the book a cursor's row was named by has been retitled since).
  return conditions[value] ?? sql`false`;
}
