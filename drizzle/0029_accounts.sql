-- Accounts: what each user owes the library. `account_entries` is the history, every charge (an overdue
-- fine, a lost item, a librarian's manual charge), payment and waiver, each a positive amount whose kind says
-- whether it adds to the balance or takes from it. `accounts` holds each user's balance, kept by one
-- statement-level trigger on the entries (one UPDATE per user per statement, the account made on its first
-- entry), so every writer only inserts entries, a bulk insert of any size is one statement, and the balance's
-- CHECK refuses a payment or waiver beyond what is owed. Concurrent payments on one account take turns on its
-- row. A waiver adds to its charge's `waived`, whose CHECK keeps it within the charge.
CREATE TABLE "account_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"loan_id" integer,
	"charge_id" integer,
	"reason" text,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"waived" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "account_entries_kind_known" CHECK ("account_entries"."kind" in ('overdue_fine', 'lost_item', 'manual', 'payment', 'waiver')),
	CONSTRAINT "account_entries_amount_positive" CHECK ("account_entries"."amount" > 0),
	CONSTRAINT "account_entries_currency_code" CHECK ("account_entries"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "account_entries_reason_given" CHECK ("account_entries"."kind" not in ('waiver', 'manual') or ("account_entries"."reason" is not null and btrim("account_entries"."reason") <> '')),
	CONSTRAINT "account_entries_reason_length" CHECK (char_length("account_entries"."reason") <= 500),
	CONSTRAINT "account_entries_loan_charged" CHECK ("account_entries"."kind" not in ('overdue_fine', 'lost_item') or "account_entries"."loan_id" is not null),
	CONSTRAINT "account_entries_waiver_of_charge" CHECK (("account_entries"."kind" = 'waiver') = ("account_entries"."charge_id" is not null)),
	CONSTRAINT "account_entries_waived_within_charge" CHECK ("account_entries"."waived" >= 0 and "account_entries"."waived" <= "account_entries"."amount" and ("account_entries"."waived" = 0 or "account_entries"."kind" in ('overdue_fine', 'lost_item', 'manual')))
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "accounts_balance_not_negative" CHECK ("accounts"."balance" >= 0),
	CONSTRAINT "accounts_currency_code" CHECK ("accounts"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "account_entries" ADD CONSTRAINT "account_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_entries" ADD CONSTRAINT "account_entries_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_entries" ADD CONSTRAINT "account_entries_charge_id_account_entries_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."account_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_entries" ADD CONSTRAINT "account_entries_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_entries_once_per_loan_idx" ON "account_entries" USING btree ("loan_id","kind") WHERE "account_entries"."kind" in ('overdue_fine', 'lost_item');--> statement-breakpoint
CREATE INDEX "account_entries_user_id_id_idx" ON "account_entries" USING btree ("user_id","id");--> statement-breakpoint
-- The balance and the waived amounts follow the entries a statement inserted. It runs before the feed's
-- trigger (triggers fire in name order), so a writer locks the account's row before the feed's lock, as a
-- borrow reading the balance does: no two writers wait on each other in opposite orders.
CREATE FUNCTION account_entries_settle() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  IF EXISTS (
    SELECT 1 FROM new_rows w JOIN account_entries c ON c.id = w.charge_id WHERE c.user_id <> w.user_id
  ) THEN
    RAISE EXCEPTION 'a waiver waives a charge of its own account'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'account_entries_waiver_of_own_charge';
  END IF;
  UPDATE account_entries c SET waived = c.waived + w.total
  FROM (SELECT charge_id, sum(amount) AS total FROM new_rows WHERE kind = 'waiver' GROUP BY charge_id) w
  WHERE c.id = w.charge_id;

  INSERT INTO accounts (user_id, currency)
  SELECT DISTINCT ON (user_id) user_id, currency FROM new_rows ORDER BY user_id, id
  ON CONFLICT (user_id) DO NOTHING;
  UPDATE accounts a SET balance = a.balance + d.change
  FROM (
    SELECT user_id, sum(CASE WHEN kind IN ('payment', 'waiver') THEN -amount ELSE amount END) AS change
    FROM new_rows GROUP BY user_id
  ) d
  WHERE a.user_id = d.user_id;
  IF EXISTS (SELECT 1 FROM new_rows n JOIN accounts a USING (user_id) WHERE n.currency <> a.currency) THEN
    RAISE EXCEPTION 'an account''s entries are all in its currency'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'account_entries_currency_of_account';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER account_entries_balance AFTER INSERT ON account_entries REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION account_entries_settle();--> statement-breakpoint
-- The change feed: an account's events are about the account (`resource_id` is its user's id) and private
-- to its user, as loans are (`borrower_id`).
CREATE FUNCTION record_account_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  recorded timestamptz;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(7305413);
  recorded := clock_timestamp();
  INSERT INTO changes (type, resource_id, borrower_id, at)
  SELECT CASE kind WHEN 'payment' THEN 'account.paid' WHEN 'waiver' THEN 'account.waived' ELSE 'account.charged' END,
    user_id, user_id, recorded
  FROM new_rows ORDER BY id;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER account_entries_record_inserted AFTER INSERT ON account_entries REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_account_changes();--> statement-breakpoint
ALTER TABLE "changes" DROP CONSTRAINT "changes_type_known";--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_type_known" CHECK ("changes"."type" in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended', 'loan.renewed', 'copy.added', 'copy.withdrawn', 'hold.placed', 'hold.ready', 'hold.ended', 'account.charged', 'account.paid', 'account.waived'));
