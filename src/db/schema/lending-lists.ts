/**
 * @module The lists a library sets up before it lends: its branches, its patron categories and its item
 * types. Each list has one default (`is_default`), which new users and copies get when none is named: the
 * column defaults call `default_branch()`, `default_patron_category()` and `default_item_type()`.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A short lowercase code people type at a desk (`main`, `dvd`), unique in its list. */
const codeChecks = (table: string, code: AnyPgColumn) => [
  check(`${table}_code_format`, sql`${code} ~ '^[a-z0-9][a-z0-9_-]{0,31}$'`),
];

const nameChecks = (table: string, name: AnyPgColumn) => [
  check(`${table}_name_not_blank`, sql`btrim(${name}) <> ''`),
  check(`${table}_name_length`, sql`char_length(${name}) <= 200`),
];

export const branches = pgTable(
  'branches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** ISO weekdays the branch opens (1 Monday … 7 Sunday); closed dates are in `branch_closures`. */
    openWeekdays: smallint('open_weekdays').array().notNull().default(sql`'{1,2,3,4,5,6,7}'`),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('branches_code_idx').on(t.code),
    uniqueIndex('branches_one_default_idx').on(t.isDefault).where(sql`${t.isDefault}`),
    ...codeChecks('branches', t.code),
    ...nameChecks('branches', t.name),
    check('branches_open_weekdays_known', sql`${t.openWeekdays} <@ '{1,2,3,4,5,6,7}'::smallint[]`),
    // A branch that never opens would push every due date there to no day at all.
    check('branches_open_some_day', sql`cardinality(${t.openWeekdays}) > 0`),
  ],
);

/** A list that is only entries (code, name, which is the default): patron categories and item types. */
function entryList<Name extends string>(table: Name) {
  return pgTable(
    table,
    {
      id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
      code: text('code').notNull(),
      name: text('name').notNull(),
      isDefault: boolean('is_default').notNull().default(false),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      version: integer('version').notNull().default(1),
    },
    (t) => [
      uniqueIndex(`${table}_code_idx`).on(t.code),
      uniqueIndex(`${table}_one_default_idx`).on(t.isDefault).where(sql`${t.isDefault}`),
      ...codeChecks(table, t.code),
      ...nameChecks(table, t.name),
    ],
  );
}

export const patronCategories = entryList('patron_categories');
export const itemTypes = entryList('item_types');
