/**
 * @module The `notices` table: the outbox of email notices to patrons. A row is queued in the transaction of
 * the event it tells of (a trigger for a hold made ready, a loan declared lost, a charge; the periodic sweep
 * for due soon and overdue), and a sender claims, sends and marks it (src/notices/). Its `dedupe_key` is
 * unique, so one event is never queued twice, however many sweeps or retries race.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { NOTICE_KINDS, NOTICE_STATUSES } from '../../domain/notice.js';
import { accountEntries } from './accounts.js';
import { holds } from './holds.js';
import { loans } from './loans.js';
import { users } from './users.js';

export const notices = pgTable(
  'notices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // RESTRICT: what was told to whom is history, as loans are.
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: NOTICE_KINDS }).notNull(),
    /** The hold a `hold_ready` notice is about. */
    holdId: integer('hold_id').references(() => holds.id, { onDelete: 'restrict' }),
    /** The loan a `due_soon`, `overdue` or `lost` notice is about. */
    loanId: integer('loan_id').references(() => loans.id, { onDelete: 'restrict' }),
    /** The charge a `charged` notice is about; of a `lost` one, the lost item's charge when there is one. */
    accountEntryId: integer('account_entry_id').references(() => accountEntries.id, { onDelete: 'restrict' }),
    /** The event it tells of, once: `notice_key(kind, subject, instant)` (the hold and when it became ready, …). */
    dedupeKey: text('dedupe_key').notNull(),
    status: text('status', { enum: NOTICE_STATUSES }).notNull().default('pending'),
    /** Times a sender claimed it. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * Pending: when it may be sent (after a failed attempt, later by a backoff). Sending: when the sender's
     * lease ends, after which another sender may claim it (the first one stopped mid-send).
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** Why the last attempt did not deliver it, or why it was skipped. */
    lastError: text('last_error'),
    /** Business time of the event it tells of. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notices_dedupe_key_idx').on(t.dedupeKey),
    // The senders' claim: the notices due, oldest first, whether waiting or with a lease run out.
    index('notices_to_send_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    // A user's notices, newest first; and the users' RESTRICT check.
    index('notices_user_id_id_idx').on(t.userId, t.id),
    check('notices_kind_known', sql`${t.kind} in ('hold_ready', 'due_soon', 'overdue', 'lost', 'charged')`),
    check('notices_status_known', sql`${t.status} in ('pending', 'sending', 'sent', 'failed', 'skipped')`),
    check(
      'notices_subject_given',
      sql`case ${t.kind} when 'hold_ready' then ${t.holdId} is not null
        when 'charged' then ${t.accountEntryId} is not null else ${t.loanId} is not null end`,
    ),
    check('notices_attempts_not_negative', sql`${t.attempts} >= 0`),
    check('notices_sent_when_sent', sql`(${t.status} = 'sent') = (${t.sentAt} is not null)`),
    check('notices_failure_said', sql`${t.status} not in ('failed', 'skipped') or ${t.lastError} is not null`),
    check('notices_last_error_length', sql`char_length(${t.lastError}) <= 1000`),
  ],
);
