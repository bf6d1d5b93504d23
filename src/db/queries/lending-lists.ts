/**
 * @module Reads and writes of the lending lists (branches, patron categories, item types), one set of
 * functions for the three tables. Each list keeps one default (a deferred trigger checks it at commit), so
 * making an entry the default clears the old one in the same transaction.
 */
import { eq, getTableName, sql } from 'drizzle-orm';
import { Conflict, InvalidInput, UnprocessableEntity } from '../../domain/errors.js';
import {
  CODE_RULE,
  isoWeekdays,
  type LendingListKind,
  type ListEntryWrite,
  type StoredListEntry,
  WEEKDAYS,
} from '../../domain/lending-lists.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { branchListingSpec, listEntryListingSpec } from '../../domain/listings.js';
import { defaultEntryStays, entryInUse, listEntryNoun } from '../../domain/refusals.js';
import type { Database, Db } from '../client.js';
import { constraintViolation, FOREIGN_KEY_VIOLATION, RESTRICT_VIOLATION } from '../errors.js';
import { branches, itemTypes, patronCategories } from '../schema/index.js';
import { type ListingTable, listingTable, readAll, readPage } from './listing.js';
import { atVersions, rejectedWrite } from './writes.js';

type ListTable = typeof branches | typeof patronCategories | typeof itemTypes;

/** One list: its table, what it reads, how it is listed, and what it is called. */
export interface LendingList {
  kind: LendingListKind;
  table: ListTable;
  listing: ListingTable;
}

/** The names of the weekdays a branch opens, in week order, from their ISO numbers. */
const openDays = sql<
  string[]
>`array(select (${sql.raw(`array[${WEEKDAYS.map((d) => `'${d}'`).join(',')}]`)})[d] from unnest(${branches.openWeekdays}) as d order by d)`;

function columnsOf(table: ListTable) {
  return { id: table.id, code: table.code, name: table.name, is_default: table.isDefault, version: table.version };
}

function listOf(kind: LendingListKind, table: ListTable): LendingList {
  const columns = columnsOf(table);
  const selection = kind === 'branch' ? { ...columns, open_days: openDays.as('open_days') } : columns;
  const spec = kind === 'branch' ? branchListingSpec : listEntryListingSpec;
  return {
    kind,
    table,
    listing: listingTable(spec, {
      from: table,
      selection,
      columns: { id: table.id, code: table.code, name: table.name },
      filters: { is_default: table.isDefault },
      id: table.id,
      search: { column: sql`''::tsvector`, config: 'simple' },
    }),
  };
}

export const lendingLists = {
  branch: listOf('branch', branches),
  'patron-category': listOf('patron-category', patronCategories),
  'item-type': listOf('item-type', itemTypes),
} as const satisfies Record<LendingListKind, LendingList>;

function selectionOf(list: LendingList) {
  return list.listing.selection as ReturnType<typeof columnsOf>;
}

export async function findListEntry(db: Db, list: LendingList, id: number): Promise<StoredListEntry | undefined> {
  const [entry] = await db.select(selectionOf(list)).from(list.table).where(eq(list.table.id, id));
  return entry as StoredListEntry | undefined;
}

/** Every entry of a list, by name: the choices of the fields that name one (a rule's scope). */
export async function allListEntries(db: Db, list: LendingList): Promise<StoredListEntry[]> {
  const rows = await db.select(selectionOf(list)).from(list.table).orderBy(list.table.name, list.table.id);
  return rows as StoredListEntry[];
}

/** Adds an entry; made the default, the list's old default stops being it in the same transaction. */
export async function insertListEntry(db: Db, list: LendingList, input: ListEntryWrite): Promise<StoredListEntry> {
  const { table } = list;
  return db
    .transaction(async (tx) => {
      if (input.is_default) await clearDefault(tx, table);
      const [inserted] = await tx
        .insert(table)
        .values({ ...valuesOf(list, input), code: input.code as string, name: input.name as string })
        .returning({ id: table.id });
      return (await findListEntry(tx, list, (inserted as { id: number }).id)) as StoredListEntry;
    })
    .catch(rejected(list));
}

/**
 * Changes the fields given, at one of `versions` if given. `is_default: true` moves the default here;
 * `false` on the default is refused (another entry must become the default instead).
 */
export async function updateListEntry(
  db: Db,
  list: LendingList,
  params: { id: number; changes: ListEntryWrite; versions?: number[] | undefined },
): Promise<StoredListEntry | undefined> {
  const { table } = list;
  const { changes } = params;
  return db
    .transaction(async (tx) => {
      const [current] = await tx
        .select({ isDefault: table.isDefault })
        .from(table)
        .where(atVersions(table, params))
        .for('update');
      if (!current) return undefined;
      if (changes.is_default === false && current.isDefault) {
        const noun = listEntryNoun(list.kind);
        throw new UnprocessableEntity(
          `${noun} ${params.id} is the default; make another ${noun} the default (is_default: true) instead`,
          { is_default: 'the default stays until another entry is made the default' },
        );
      }
      if (changes.is_default === true && !current.isDefault) await clearDefault(tx, table);
      await tx
        .update(table)
        .set({ ...valuesOf(list, changes), version: sql`${table.version} + 1` })
        .where(eq(table.id, params.id));
      return findListEntry(tx, list, params.id);
    })
    .catch(rejected(list));
}

/** Deletes an entry (at one of `versions` if given); in use, the foreign keys refuse, and the default stays. */
export async function deleteListEntry(
  db: Db,
  list: LendingList,
  params: { id: number; versions?: number[] | undefined },
): Promise<boolean> {
  const deleted = await db
    .delete(list.table)
    .where(atVersions(list.table, params))
    .returning({ id: list.table.id })
    .catch((error: unknown) => {
      const code = constraintViolation(error)?.code;
      if (code === FOREIGN_KEY_VIOLATION || code === RESTRICT_VIOLATION) throw entryInUse(list.kind, params.id);
      return rejected(list, params.id)(error);
    });
  return deleted.length > 0;
}

export function listEntriesPage(db: Db, list: LendingList, listing: PagedListing) {
  return readPage<StoredListEntry>(db, list.listing, listing);
}

export function streamListEntries(database: Database, list: LendingList, listing: Listing) {
  return readAll<StoredListEntry>(database, list.listing, listing);
}

async function clearDefault(tx: Db, table: ListTable): Promise<void> {
  await tx
    .update(table)
    .set({ isDefault: false, version: sql`${table.version} + 1` })
    .where(eq(table.isDefault, true));
}

/** The columns a write sets, from what was sent (`code` and `name` as given, opening days as ISO numbers). */
function valuesOf(list: LendingList, input: ListEntryWrite) {
  return {
    ...(input.code !== undefined && { code: input.code }),
    ...(input.name !== undefined && { name: input.name }),
    ...(input.is_default !== undefined && { isDefault: input.is_default }),
    ...(list.kind === 'branch' && input.open_days !== undefined && { openWeekdays: isoWeekdays(input.open_days) }),
  };
}

/** What the database refused, in the list's words. */
function rejected(list: LendingList, id?: number) {
  const table = getTableName(list.table);
  const noun = listEntryNoun(list.kind);
  return rejectedWrite(noun, {
    [`${table}_code_idx`]: () => new Conflict(`that code is already another ${noun}\u2019s: codes are unique`),
    [`${table}_code_format`]: () => new InvalidInput(`code must be ${CODE_RULE}`, { code: `must be ${CODE_RULE}` }),
    [`${table}_one_default_idx`]: () =>
      new Conflict(`another ${noun} was made the default at the same time; read the list again`),
    [`${table}_one_default`]: () =>
      id === undefined ? new Conflict(`the ${noun} list keeps exactly one default`) : defaultEntryStays(list.kind, id),
  });
}
