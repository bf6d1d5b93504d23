/** @module The `tokens` table: bearer tokens, stored only as a SHA-256 hash of the secret. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const tokens = pgTable(
  'tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A label the owner chose ("laptop", "nightly import"). */
    name: text('name').notNull(),
    /** Hex SHA-256 of the secret. The secret itself is shown once, at creation, and never stored. */
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The operator's `CATALOGUE_ADMIN_TOKEN`: its owner stays a librarian (see migration 0005). */
    operator: boolean('operator').notNull().default(false),
  },
  (t) => [
    uniqueIndex('tokens_secret_hash_idx').on(t.secretHash),
    index('tokens_user_id_idx').on(t.userId, t.id),
    check('tokens_name_length', sql`char_length(${t.name}) <= 200`),
  ],
);
