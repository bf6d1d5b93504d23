/** @module The `users` table: people who sign in, with their role, their library card and how to reach them. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  CARD_NUMBER_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  LANGUAGE_TAG_MAX_LENGTH,
  NAME_MAX_LENGTH,
} from '../../domain/limits.js';
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
    /** Their library card's number, scanned at the desk and typed to sign in; unique like a barcode. */
    cardNumber: text('card_number'),
    /** Their PIN's scrypt hash (`scrypt$N$r$p$salt$hash`), never the PIN; null: no PIN, no card sign-in. */
    pinHash: text('pin_hash'),
    /** Wrong PINs in a row since the last right one; reset by a right one or a new PIN. */
    pinFailures: integer('pin_failures').notNull().default(0),
    /** Until when card sign-in is refused after too many wrong PINs. */
    pinLockedUntil: timestamp('pin_locked_until', { withTimezone: true }),
    /** Where notices are sent; null: none are. */
    email: text('email'),
    /** Their language (BCP 47) for notices, where known. */
    language: text('language'),
  },
  (t) => [
    check('users_name_not_blank', sql`btrim(${t.name}) <> ''`),
    check('users_name_length', sql`char_length(${t.name}) <= ${sql.raw(String(NAME_MAX_LENGTH))}`),
    check('users_role_known', sql`${t.role} in ('librarian', 'member')`),
    // The lists' RESTRICT checks: deleting a category or branch finds its users without reading them all.
    index('users_patron_category_id_idx').on(t.patronCategoryId),
    index('users_home_branch_id_idx').on(t.homeBranchId),
    uniqueIndex('users_card_number_idx').on(t.cardNumber),
    check('users_card_number_not_blank', sql`${t.cardNumber} is null or btrim(${t.cardNumber}) <> ''`),
    check(
      'users_card_number_length',
      sql`${t.cardNumber} is null or char_length(${t.cardNumber}) <= ${sql.raw(String(CARD_NUMBER_MAX_LENGTH))}`,
    ),
    check('users_pin_failures_not_negative', sql`${t.pinFailures} >= 0`),
    // One address, no line breaks: a header built from it cannot carry a second one.
    check(
      'users_email_shape',
      sql`${t.email} is null or (${t.email} ~ '^[^@[:space:][:cntrl:]]+@[^@[:space:][:cntrl:]]+$' and char_length(${t.email}) <= ${sql.raw(String(EMAIL_MAX_LENGTH))})`,
    ),
    check(
      'users_language_tag',
      sql`${t.language} is null or (${t.language} ~ '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$' and char_length(${t.language}) <= ${sql.raw(String(LANGUAGE_TAG_MAX_LENGTH))})`,
    ),
  ],
);
