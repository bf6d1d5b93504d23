CREATE TABLE "changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"resource_id" integer NOT NULL,
	"borrower_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changes_type_known" CHECK ("changes"."type" in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended'))
);
--> statement-breakpoint
CREATE TABLE "changes_horizon" (
	"only" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"pruned_through" bigint NOT NULL,
	"begins_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changes_horizon_one_row" CHECK ("changes_horizon"."only")
);
--> statement-breakpoint
CREATE INDEX "changes_borrower_id_id_idx" ON "changes" USING btree ("borrower_id","id");--> statement-breakpoint
INSERT INTO "changes_horizon" ("only", "pruned_through") VALUES (true, 0);
--> statement-breakpoint
-- The change feed (docs/api.md, "Change feed"). Every statement that creates, changes or deletes books or
-- authors, or starts or ends loans, records one event per row in `changes`, in its own transaction: a
-- committed change always has its events, a rolled-back one never does, whichever path wrote it (the API,
-- the CLI, psql).
--
-- Numbers in commit order: before taking numbers for its events a transaction takes the transaction-scoped
-- advisory lock 7305413, which it holds until it commits or rolls back. A transaction that takes numbers
-- later therefore waits until every transaction holding smaller numbers has ended, and a reader that has
-- seen event n can never afterwards see a commit of an event numbered below n. The lock is taken after the
-- statement did its work, so it is held from the last evented statement to commit (writers of the
-- catalogue serialise only over that span). The sequence's CACHE is 1: a cached range would hand out
-- numbers outside the lock's order.
--
-- `pg_notify('catalogue_changes')`, delivered at commit and merged within a transaction, wakes the event
-- streams of every server process; they then read by number, so a missed notification delays, never loses.
CREATE FUNCTION record_catalogue_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
  ids integer[];
  recorded timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, at) SELECT kind || '.created', id, recorded FROM new_rows ORDER BY id;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, at) SELECT kind || '.deleted', id, recorded FROM old_rows ORDER BY id;
  ELSE
    -- Rows that changed: a book's search vector rewritten because its author was renamed is not a change
    -- of the book (the author's event says it).
    SELECT array_agg(n.id ORDER BY n.id) INTO ids
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE (to_jsonb(n) - 'search') IS DISTINCT FROM (to_jsonb(o) - 'search');
    IF ids IS NULL THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, at) SELECT kind || '.updated', id, recorded FROM unnest(ids) AS id;
  END IF;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A loan starts when inserted and ends when its return is stamped; loans are never deleted (RESTRICT
-- keeps history). The borrower is recorded so that a member's feed shows their own loans only.
CREATE FUNCTION record_loan_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  recorded timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'loan.started', id, borrower_id, recorded FROM new_rows ORDER BY id;
  ELSE
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o USING (id) WHERE o.returned_at IS NULL AND n.returned_at IS NOT NULL
    ) THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'loan.ended', n.id, n.borrower_id, recorded
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE o.returned_at IS NULL AND n.returned_at IS NOT NULL
    ORDER BY n.id;
  END IF;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_record_inserted AFTER INSERT ON books REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_catalogue_changes('book');
--> statement-breakpoint
CREATE TRIGGER books_record_updated AFTER UPDATE ON books REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_catalogue_changes('book');
--> statement-breakpoint
CREATE TRIGGER books_record_deleted AFTER DELETE ON books REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_catalogue_changes('book');
--> statement-breakpoint
CREATE TRIGGER authors_record_inserted AFTER INSERT ON authors REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_catalogue_changes('author');
--> statement-breakpoint
CREATE TRIGGER authors_record_updated AFTER UPDATE ON authors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_catalogue_changes('author');
--> statement-breakpoint
CREATE TRIGGER authors_record_deleted AFTER DELETE ON authors REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_catalogue_changes('author');
--> statement-breakpoint
CREATE TRIGGER loans_record_inserted AFTER INSERT ON loans REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_loan_changes();
--> statement-breakpoint
CREATE TRIGGER loans_record_updated AFTER UPDATE ON loans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_loan_changes();
