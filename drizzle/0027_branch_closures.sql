-- A branch's closed dates (holidays, an emergency), in the library's time zone: due dates move off them, fines
-- do not count them. Adding or deleting one is a public event of the change feed about the branch.
CREATE TABLE "branch_closures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "branch_closures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"branch_id" integer NOT NULL,
	"date" date NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "branch_closures_reason_length" CHECK (char_length("branch_closures"."reason") <= 200)
);
--> statement-breakpoint
ALTER TABLE "changes" DROP CONSTRAINT "changes_type_known";--> statement-breakpoint
ALTER TABLE "branch_closures" ADD CONSTRAINT "branch_closures_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "branch_closures_branch_id_date_idx" ON "branch_closures" USING btree ("branch_id","date");--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_type_known" CHECK ("changes"."type" in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended', 'loan.renewed', 'copy.added', 'copy.withdrawn', 'hold.placed', 'hold.ready', 'hold.ended', 'branch.closed', 'branch.reopened'));--> statement-breakpoint
-- A branch's closures are public: adding one is `branch.closed`, deleting one `branch.reopened`, each about
-- the branch (borrower_id NULL). A branch deleted takes its closures with it, and no event says it reopened.
CREATE OR REPLACE FUNCTION record_closure_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  recorded timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'branch.closed', branch_id, NULL, recorded FROM new_rows ORDER BY id;
  ELSE
    IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN branches b ON b.id = o.branch_id) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'branch.reopened', o.branch_id, NULL, recorded
    FROM old_rows o JOIN branches b ON b.id = o.branch_id ORDER BY o.id;
  END IF;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER branch_closures_record_inserted AFTER INSERT ON branch_closures
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION record_closure_changes();--> statement-breakpoint
CREATE TRIGGER branch_closures_record_deleted AFTER DELETE ON branch_closures
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION record_closure_changes();
