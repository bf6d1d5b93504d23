-- The lost-items job at a million loans: what one batch's statements spent per row, not needed per row.
--
-- An account's change-feed events are about the account (`resource_id` is its user's id, the event names no
-- entry), so a statement's entries record one event per account and kind, in the order of each group's first
-- entry: a batch of the job charging a borrower twenty times is one `account.charged`, not twenty identical
-- ones. A reader of the feed re-reads the account either way.
CREATE OR REPLACE FUNCTION record_account_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  recorded timestamptz;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(7305413);
  recorded := clock_timestamp();
  INSERT INTO changes (type, resource_id, borrower_id, at)
  SELECT e.type, e.user_id, e.user_id, recorded
  FROM (
    SELECT CASE kind WHEN 'payment' THEN 'account.paid' WHEN 'waiver' THEN 'account.waived' ELSE 'account.charged' END
        AS type,
      user_id, min(id) AS first
    FROM new_rows GROUP BY 1, 2
  ) e
  ORDER BY e.first;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A loan or an account written tells the caller cache its user (migration 0007): once per user and statement,
-- from the statement's rows, rather than a row trigger serialising each whole row to JSON twice. The payloads
-- are the same, and PostgreSQL merged repeats within a transaction already. The argument names the column.
CREATE FUNCTION notify_callers_of_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  touched text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT %1$I FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT %1$I FROM old_rows'
    ELSE 'SELECT %1$I FROM old_rows UNION SELECT %1$I FROM new_rows'
  END;
BEGIN
  EXECUTE format(
    'SELECT pg_notify(''catalogue_callers'', u::text) FROM (SELECT DISTINCT u FROM (' || touched || ') AS t (u)) AS d',
    TG_ARGV[0]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER loans_notify_callers ON loans;--> statement-breakpoint
CREATE TRIGGER loans_notify_callers_inserted AFTER INSERT ON loans REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION notify_callers_of_rows('borrower_id');--> statement-breakpoint
CREATE TRIGGER loans_notify_callers_updated AFTER UPDATE ON loans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION notify_callers_of_rows('borrower_id');--> statement-breakpoint
CREATE TRIGGER loans_notify_callers_deleted AFTER DELETE ON loans REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION notify_callers_of_rows('borrower_id');--> statement-breakpoint
DROP TRIGGER accounts_notify_callers ON accounts;--> statement-breakpoint
CREATE TRIGGER accounts_notify_callers_inserted AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION notify_callers_of_rows('user_id');--> statement-breakpoint
CREATE TRIGGER accounts_notify_callers_updated AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows
NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_callers_of_rows('user_id');
