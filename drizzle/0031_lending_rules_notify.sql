-- Each server process keeps the lending rules in memory (src/db/lending-rules.ts), with the names of
-- their scope, so that a book read decides its borrow and hold controls without reading them. Every
-- statement that changes a rule, or a branch, patron category or item type (whose names the rules show,
-- and whose removal removes rules), says so on the channel `catalogue_lending_rules`; every process
-- listens and forgets the rules. Once per statement: a bulk change is one notification, and PostgreSQL
-- merges repeats of one payload within a transaction and delivers them once it commits.
CREATE FUNCTION notify_lending_rules_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_lending_rules', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER loan_rules_notify_lending_rules
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loan_rules
FOR EACH STATEMENT EXECUTE FUNCTION notify_lending_rules_changed();
--> statement-breakpoint
CREATE TRIGGER branches_notify_lending_rules
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON branches
FOR EACH STATEMENT EXECUTE FUNCTION notify_lending_rules_changed();
--> statement-breakpoint
CREATE TRIGGER patron_categories_notify_lending_rules
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON patron_categories
FOR EACH STATEMENT EXECUTE FUNCTION notify_lending_rules_changed();
--> statement-breakpoint
CREATE TRIGGER item_types_notify_lending_rules
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON item_types
FOR EACH STATEMENT EXECUTE FUNCTION notify_lending_rules_changed();
--> statement-breakpoint
-- The branches' calendars are remembered with the rules: a book read's borrow control shows the due date.
CREATE TRIGGER branch_closures_notify_lending_rules
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON branch_closures
FOR EACH STATEMENT EXECUTE FUNCTION notify_lending_rules_changed();
--> statement-breakpoint
-- The remembered caller carries their active loans by item type and loan branch (a book read counts them
-- against the capping rule): a copy on loan that changes its item type changes its borrower's counts.
CREATE FUNCTION notify_copy_borrower_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_callers', "lent"."borrower_id"::text)
  FROM loans AS "lent" WHERE "lent"."copy_id" = NEW.id AND "lent"."returned_at" IS NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER copies_notify_borrower
AFTER UPDATE OF item_type_id ON copies
FOR EACH ROW WHEN (OLD.item_type_id IS DISTINCT FROM NEW.item_type_id)
EXECUTE FUNCTION notify_copy_borrower_changed();
