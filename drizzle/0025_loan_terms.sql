-- Each loan keeps where it was lent and the terms the lending rules gave it, so that changing a rule never
-- rewrites a loan already made (a renewal decides them again). Loans made before rules existed were lent at
-- their copy's branch under the rule of any × any × any, whose values they take.
ALTER TABLE "loans" ADD COLUMN "branch_id" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "loan_period" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "loan_period_unit" text;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "renewals_allowed" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "fine_per_day" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "grace_days" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "fine_cap" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "lost_after_days" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "lost_charge" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "floating" boolean;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "term_rules" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "loans" SET
  "branch_id" = (SELECT "copies"."branch_id" FROM "copies" WHERE "copies"."id" = "loans"."copy_id"),
  "loan_period" = "rule"."loan_period", "loan_period_unit" = "rule"."loan_period_unit",
  "renewals_allowed" = "rule"."renewals_allowed", "fine_per_day" = "rule"."fine_per_day",
  "grace_days" = "rule"."grace_days", "fine_cap" = "rule"."fine_cap", "lost_after_days" = "rule"."lost_after_days",
  "lost_charge" = "rule"."lost_charge", "floating" = "rule"."floating",
  "term_rules" = (SELECT jsonb_object_agg("term", "rule"."id") FROM unnest(ARRAY['loan_period', 'renewals_allowed',
    'renewal_period', 'max_loans', 'holds_allowed', 'fine_per_day', 'grace_days', 'fine_cap', 'lost_after_days',
    'lost_charge', 'lendable', 'floating']) AS "term")
FROM (SELECT * FROM "loan_rules" WHERE "patron_category_id" IS NULL AND "item_type_id" IS NULL AND "branch_id" IS NULL) AS "rule";--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "branch_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "loan_period" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "loan_period_unit" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "renewals_allowed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "fine_per_day" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "grace_days" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "lost_charge" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "floating" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;
