/** @module The `users` table: people who sign in, with their role. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { NAME_MAX_LENGTH } from '../../domain/limits.js';
import { branches, patronCategories } from './lending-lists.js';

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    role: text('role', { enum: ['librarian', 'member'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /** Which lending rules apply to them; the library's default category unless named. */
    patronCategoryId: integer('patron_category_id')
      .notNull()
      .default(sql`default_patron_category()`)
      .references(() => patronCategories.id, { onDelete: 'restrict' }),
    /** Where their holds are picked up unless they name another branch; the default branch unless named. */
    homeBranchId: integer('home_branch_id')
      .notNull()
      .default(sql`default_branch()`)
      .references(() => branches.id, { onDelete: 'restrict' }),
  },
  (t) => [
    check('users_name_not_blank', sql`btrim(${t.name}) <> ''`),
    check('users_name_length', sql`char_length(${t.name}) <= ${sql.raw(String(NAME_MAX_LENGTH))}`),
    check('users_role_known', sql`${t.role} in ('librarian', 'member')`),
    // The lists' RESTRICT checks: deleting a category or branch finds its users without reading them all.
    index('users_patron_category_id_idx').on(t.patronCategoryId),
    index('users_home_branch_id_idx').on(t.homeBranchId),
  ],
);
