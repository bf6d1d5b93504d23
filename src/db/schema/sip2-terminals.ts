/**
 * @module The `sip2_terminals` table: the self-check machines and book-drop sorters that may sign in to the
 * SIP2 listener (docs/protocols.md, "SIP2"), each with its login, its password's scrypt hash, where it
 * stands and the librarian it acts as.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './lending-lists.js';
import { users } from './users.js';

export const sip2Terminals = pgTable(
  'sip2_terminals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The login user id a terminal sends in a 93 login's CN field. */
    login: text('login').notNull(),
    /** The password (CO) as scrypt hashes a PIN (`domain/pin.ts`); never the password itself. */
    passwordHash: text('password_hash').notNull(),
    /** The institution id (AO) answers carry. */
    institutionId: text('institution_id').notNull(),
    /** Whether its messages carry a sequence number (AY) and checksum (AZ), and its answers do too. */
    errorDetection: boolean('error_detection').notNull().default(true),
    /** How its bytes are read and written: `utf-8` or `iso-8859-1`. */
    charset: text('charset').notNull().default('utf-8'),
    /** Where it stands: what it lends and takes back is lent or returned at this branch. */
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    /** The librarian whose rights its transactions use (the desk's). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sip2_terminals_login_idx').on(t.login),
    check('sip2_terminals_charset_known', sql`${t.charset} in ('utf-8', 'iso-8859-1')`),
    // A SIP2 field ends at `|`; a login or institution id with one (or a control character) could not be sent.
    check('sip2_terminals_login_shape', sql`${t.login} ~ '^[^|[:cntrl:]]{1,64}$'`),
    check('sip2_terminals_institution_shape', sql`${t.institutionId} ~ '^[^|[:cntrl:]]{0,64}$'`),
  ],
);
