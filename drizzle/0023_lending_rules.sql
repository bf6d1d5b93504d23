-- A library's own lending rules, first part: its branches, patron categories and item types, and the rules
-- matrix. Every existing copy and user joins the default branch; copies are books, members adults, and
-- librarians staff. The rule of any × any × any holds today's settings (loan period, renewals, cap), which
-- keep applying to it (`from_settings`) until a librarian changes it; staff are not capped, as librarians
-- were not. The constant defaults (1, the first row of each new list) add the columns without rewriting the
-- tables; the column defaults then name each list's default row.
CREATE TABLE "branches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "branches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"open_weekdays" smallint[] DEFAULT '{1,2,3,4,5,6,7}' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "branches_code_format" CHECK ("branches"."code" ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
	CONSTRAINT "branches_name_not_blank" CHECK (btrim("branches"."name") <> ''),
	CONSTRAINT "branches_name_length" CHECK (char_length("branches"."name") <= 200),
	CONSTRAINT "branches_open_weekdays_known" CHECK ("branches"."open_weekdays" <@ '{1,2,3,4,5,6,7}'::smallint[])
);
--> statement-breakpoint
CREATE TABLE "item_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "item_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "item_types_code_format" CHECK ("item_types"."code" ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
	CONSTRAINT "item_types_name_not_blank" CHECK (btrim("item_types"."name") <> ''),
	CONSTRAINT "item_types_name_length" CHECK (char_length("item_types"."name") <= 200)
);
--> statement-breakpoint
CREATE TABLE "loan_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patron_category_id" integer,
	"item_type_id" integer,
	"branch_id" integer,
	"loan_period" integer,
	"loan_period_unit" text,
	"renewals_allowed" integer,
	"renewal_period" integer,
	"renewal_period_unit" text,
	"max_loans" integer,
	"holds_allowed" boolean,
	"fine_per_day" integer,
	"grace_days" integer,
	"fine_cap" integer,
	"lost_after_days" integer,
	"lost_charge" integer,
	"lendable" boolean,
	"floating" boolean,
	"no_limit" text[] DEFAULT '{}' NOT NULL,
	"from_settings" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "loan_rules_scope_key" UNIQUE NULLS NOT DISTINCT("patron_category_id","item_type_id","branch_id"),
	CONSTRAINT "loan_rules_loan_period_positive" CHECK ("loan_rules"."loan_period" > 0),
	CONSTRAINT "loan_rules_loan_period_has_unit" CHECK (("loan_rules"."loan_period" is null) = ("loan_rules"."loan_period_unit" is null)),
	CONSTRAINT "loan_rules_renewal_period_positive" CHECK ("loan_rules"."renewal_period" > 0),
	CONSTRAINT "loan_rules_renewal_period_has_unit" CHECK (("loan_rules"."renewal_period" is null) = ("loan_rules"."renewal_period_unit" is null)),
	CONSTRAINT "loan_rules_units_known" CHECK ("loan_rules"."loan_period_unit" in ('days', 'hours') and "loan_rules"."renewal_period_unit" in ('days', 'hours')),
	CONSTRAINT "loan_rules_renewals_not_negative" CHECK ("loan_rules"."renewals_allowed" >= 0),
	CONSTRAINT "loan_rules_max_loans_not_negative" CHECK ("loan_rules"."max_loans" >= 0),
	CONSTRAINT "loan_rules_fine_per_day_not_negative" CHECK ("loan_rules"."fine_per_day" >= 0),
	CONSTRAINT "loan_rules_grace_days_not_negative" CHECK ("loan_rules"."grace_days" >= 0),
	CONSTRAINT "loan_rules_fine_cap_not_negative" CHECK ("loan_rules"."fine_cap" >= 0),
	CONSTRAINT "loan_rules_lost_after_days_positive" CHECK ("loan_rules"."lost_after_days" > 0),
	CONSTRAINT "loan_rules_lost_charge_not_negative" CHECK ("loan_rules"."lost_charge" >= 0),
	CONSTRAINT "loan_rules_no_limit_known" CHECK ("loan_rules"."no_limit" <@ '{max_loans,fine_cap,lost_after_days}'::text[]
        and not ('max_loans' = any("loan_rules"."no_limit") and "loan_rules"."max_loans" is not null)
        and not ('fine_cap' = any("loan_rules"."no_limit") and "loan_rules"."fine_cap" is not null)
        and not ('lost_after_days' = any("loan_rules"."no_limit") and "loan_rules"."lost_after_days" is not null)),
	CONSTRAINT "loan_rules_default_sets_every_value" CHECK ("loan_rules"."patron_category_id" is not null or "loan_rules"."item_type_id" is not null or "loan_rules"."branch_id" is not null or (
        "loan_rules"."loan_period" is not null and "loan_rules"."renewals_allowed" is not null and "loan_rules"."renewal_period" is not null
        and ("loan_rules"."max_loans" is not null or 'max_loans' = any("loan_rules"."no_limit")) and "loan_rules"."holds_allowed" is not null
        and "loan_rules"."fine_per_day" is not null and "loan_rules"."grace_days" is not null
        and ("loan_rules"."fine_cap" is not null or 'fine_cap' = any("loan_rules"."no_limit"))
        and ("loan_rules"."lost_after_days" is not null or 'lost_after_days' = any("loan_rules"."no_limit"))
        and "loan_rules"."lost_charge" is not null and "loan_rules"."lendable" is not null and "loan_rules"."floating" is not null)),
	CONSTRAINT "loan_rules_only_default_from_settings" CHECK (not "loan_rules"."from_settings" or ("loan_rules"."patron_category_id" is null and "loan_rules"."item_type_id" is null and "loan_rules"."branch_id" is null))
);
--> statement-breakpoint
CREATE TABLE "patron_categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patron_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "patron_categories_code_format" CHECK ("patron_categories"."code" ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
	CONSTRAINT "patron_categories_name_not_blank" CHECK (btrim("patron_categories"."name") <> ''),
	CONSTRAINT "patron_categories_name_length" CHECK (char_length("patron_categories"."name") <= 200)
);
--> statement-breakpoint
ALTER TABLE "loan_rules" ADD CONSTRAINT "loan_rules_patron_category_id_patron_categories_id_fk" FOREIGN KEY ("patron_category_id") REFERENCES "public"."patron_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_rules" ADD CONSTRAINT "loan_rules_item_type_id_item_types_id_fk" FOREIGN KEY ("item_type_id") REFERENCES "public"."item_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_rules" ADD CONSTRAINT "loan_rules_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "branches_code_idx" ON "branches" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "branches_one_default_idx" ON "branches" USING btree ("is_default") WHERE "branches"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "item_types_code_idx" ON "item_types" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "item_types_one_default_idx" ON "item_types" USING btree ("is_default") WHERE "item_types"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "patron_categories_code_idx" ON "patron_categories" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "patron_categories_one_default_idx" ON "patron_categories" USING btree ("is_default") WHERE "patron_categories"."is_default";--> statement-breakpoint
CREATE FUNCTION default_branch() RETURNS integer LANGUAGE sql STABLE AS $$ SELECT id FROM branches WHERE is_default $$;--> statement-breakpoint
CREATE FUNCTION default_patron_category() RETURNS integer LANGUAGE sql STABLE AS $$ SELECT id FROM patron_categories WHERE is_default $$;--> statement-breakpoint
CREATE FUNCTION default_item_type() RETURNS integer LANGUAGE sql STABLE AS $$ SELECT id FROM item_types WHERE is_default $$;--> statement-breakpoint
-- Each list keeps exactly one default, checked when the transaction commits, so a librarian can move the
-- default from one row to another in one transaction (the partial unique index allows one at a time).
CREATE FUNCTION lending_list_keeps_one_default() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE defaults integer;
BEGIN
  EXECUTE format('SELECT count(*) FROM %I WHERE is_default', TG_TABLE_NAME) INTO defaults;
  IF defaults <> 1 THEN
    RAISE EXCEPTION '% must keep exactly one default row', TG_TABLE_NAME
      USING ERRCODE = 'check_violation', CONSTRAINT = TG_TABLE_NAME || '_one_default';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER branches_one_default AFTER INSERT OR UPDATE OF is_default OR DELETE ON branches
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lending_list_keeps_one_default();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER patron_categories_one_default AFTER INSERT OR UPDATE OF is_default OR DELETE ON patron_categories
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lending_list_keeps_one_default();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER item_types_one_default AFTER INSERT OR UPDATE OF is_default OR DELETE ON item_types
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lending_list_keeps_one_default();--> statement-breakpoint
-- The rule of any × any × any is where every value ends: it may change, never go.
CREATE FUNCTION loan_rules_keep_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.patron_category_id IS NULL AND OLD.item_type_id IS NULL AND OLD.branch_id IS NULL THEN
    RAISE EXCEPTION 'the rule of any patron category, any item type and any branch cannot be deleted'
      USING ERRCODE = 'restrict_violation', CONSTRAINT = 'loan_rules_default_kept';
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER loan_rules_keep_default BEFORE DELETE ON loan_rules FOR EACH ROW EXECUTE FUNCTION loan_rules_keep_default();--> statement-breakpoint
INSERT INTO branches (code, name, is_default) VALUES ('main', 'Main library', true);--> statement-breakpoint
INSERT INTO patron_categories (code, name, is_default) VALUES ('adult', 'Adult', true), ('staff', 'Staff', false);--> statement-breakpoint
INSERT INTO item_types (code, name, is_default) VALUES ('book', 'Book', true);--> statement-breakpoint
INSERT INTO loan_rules (loan_period, loan_period_unit, renewals_allowed, renewal_period, renewal_period_unit, max_loans,
  holds_allowed, fine_per_day, grace_days, fine_cap, lost_after_days, lost_charge, lendable, floating, no_limit, from_settings)
VALUES (14, 'days', 2, 14, 'days', 10, true, 0, 0, NULL, NULL, 0, true, false, '{fine_cap,lost_after_days}', true);--> statement-breakpoint
INSERT INTO loan_rules (patron_category_id, no_limit) SELECT id, '{max_loans}' FROM patron_categories WHERE code = 'staff';--> statement-breakpoint
ALTER TABLE "copies" ADD COLUMN "branch_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "copies" ALTER COLUMN "branch_id" SET DEFAULT default_branch();--> statement-breakpoint
ALTER TABLE "copies" ADD COLUMN "item_type_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "copies" ALTER COLUMN "item_type_id" SET DEFAULT default_item_type();--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "patron_category_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "patron_category_id" SET DEFAULT default_patron_category();--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "home_branch_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "home_branch_id" SET DEFAULT default_branch();--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_item_type_id_item_types_id_fk" FOREIGN KEY ("item_type_id") REFERENCES "public"."item_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_patron_category_id_patron_categories_id_fk" FOREIGN KEY ("patron_category_id") REFERENCES "public"."patron_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_home_branch_id_branches_id_fk" FOREIGN KEY ("home_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
UPDATE "users" SET "patron_category_id" = (SELECT id FROM patron_categories WHERE code = 'staff') WHERE "role" = 'librarian';
