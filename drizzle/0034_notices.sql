-- Notices by email: `notices`, an outbox. A row is written in the transaction of the event it tells of, and
-- sent later by a sender that claims it (src/notices/; docs/operations.md, "Notices by email"). Triggers queue
-- three kinds here: a hold made ready for pickup, a loan declared lost, a charge (an overdue fine or a
-- librarian's); the periodic sweep queues due soon and overdue (src/db/queries/notices.ts). Each notice's
-- `dedupe_key` names its event once (`notice_key`), unique, so no event is queued twice. A patron without an
-- email address gets the row all the same, `skipped`, so that librarians see what they were not told.
CREATE TABLE "notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"hold_id" integer,
	"loan_id" integer,
	"account_entry_id" integer,
	"dedupe_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "notices_kind_known" CHECK ("notices"."kind" in ('hold_ready', 'due_soon', 'overdue', 'lost', 'charged')),
	CONSTRAINT "notices_status_known" CHECK ("notices"."status" in ('pending', 'sending', 'sent', 'failed', 'skipped')),
	CONSTRAINT "notices_subject_given" CHECK (case "notices"."kind" when 'hold_ready' then "notices"."hold_id" is not null when 'charged' then "notices"."account_entry_id" is not null else "notices"."loan_id" is not null end),
	CONSTRAINT "notices_attempts_not_negative" CHECK ("notices"."attempts" >= 0),
	CONSTRAINT "notices_sent_when_sent" CHECK (("notices"."status" = 'sent') = ("notices"."sent_at" is not null)),
	CONSTRAINT "notices_failure_said" CHECK ("notices"."status" not in ('failed', 'skipped') or "notices"."last_error" is not null),
	CONSTRAINT "notices_last_error_length" CHECK (char_length("notices"."last_error") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_account_entry_id_account_entries_id_fk" FOREIGN KEY ("account_entry_id") REFERENCES "public"."account_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notices_dedupe_key_idx" ON "notices" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notices_to_send_idx" ON "notices" USING btree ("next_attempt_at") WHERE "notices"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "notices_user_id_id_idx" ON "notices" USING btree ("user_id","id");--> statement-breakpoint
-- The key of the event a notice tells of: its kind, its subject's id (hold, loan or account entry) and, for
-- an event a subject can have more than once (a hold ready again, a loan due again after a renewal), when.
CREATE FUNCTION notice_key(kind text, subject integer, at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT kind || ':' || subject || coalesce('@' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '')
$$;
--> statement-breakpoint
-- Queues the notices of one statement's events, set-based from its transition tables: holds that became
-- ready, loans declared lost (with the lost item's charge, inserted before the loan is stamped), and charges
-- (overdue fines and manual ones; a lost item's charge is told by the `lost` notice). A notice is due when
-- its event happened (business time, from the row), and skipped at once for a patron with no email address.
CREATE FUNCTION queue_notices() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'holds' THEN
    INSERT INTO notices (user_id, kind, hold_id, dedupe_key, status, last_error, next_attempt_at, created_at)
    SELECT n.borrower_id, 'hold_ready', n.id, notice_key('hold_ready', n.id, n.ready_at),
      CASE WHEN u.email IS NULL THEN 'skipped' ELSE 'pending' END,
      CASE WHEN u.email IS NULL THEN 'no email address' END,
      n.ready_at, n.ready_at
    FROM new_rows n JOIN old_rows o USING (id) JOIN users u ON u.id = n.borrower_id
    WHERE n.status = 'ready' AND o.status <> 'ready'
    ORDER BY n.id
    ON CONFLICT (dedupe_key) DO NOTHING;
  ELSIF TG_TABLE_NAME = 'loans' THEN
    INSERT INTO notices (user_id, kind, loan_id, account_entry_id, dedupe_key, status, last_error, next_attempt_at,
      created_at)
    SELECT n.borrower_id, 'lost', n.id, e.id, notice_key('lost', n.id, n.lost_at),
      CASE WHEN u.email IS NULL THEN 'skipped' ELSE 'pending' END,
      CASE WHEN u.email IS NULL THEN 'no email address' END,
      n.lost_at, n.lost_at
    FROM new_rows n JOIN old_rows o USING (id) JOIN users u ON u.id = n.borrower_id
      LEFT JOIN account_entries e ON e.loan_id = n.id AND e.kind = 'lost_item'
    WHERE n.lost_at IS NOT NULL AND o.lost_at IS NULL
    ORDER BY n.id
    ON CONFLICT (dedupe_key) DO NOTHING;
  ELSE
    INSERT INTO notices (user_id, kind, account_entry_id, dedupe_key, status, last_error, next_attempt_at, created_at)
    SELECT n.user_id, 'charged', n.id, notice_key('charged', n.id, NULL),
      CASE WHEN u.email IS NULL THEN 'skipped' ELSE 'pending' END,
      CASE WHEN u.email IS NULL THEN 'no email address' END,
      n.created_at, n.created_at
    FROM new_rows n JOIN users u ON u.id = n.user_id
    WHERE n.kind IN ('overdue_fine', 'manual')
    ORDER BY n.id
    ON CONFLICT (dedupe_key) DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER holds_queue_notices AFTER UPDATE ON holds REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION queue_notices();
--> statement-breakpoint
CREATE TRIGGER loans_queue_notices AFTER UPDATE ON loans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION queue_notices();
--> statement-breakpoint
CREATE TRIGGER account_entries_queue_notices AFTER INSERT ON account_entries REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION queue_notices();
