-- Lost items: `loans.lost_at`, stamped by the lost-items job (src/db/queries/lost-loans.ts) on an active loan
-- its terms' `lost_after_days` past due; the loan stays active until returned. The job walks the loans that
-- may still be declared lost by id (`loans_may_be_lost_idx`). Declaring one is a `loan.lost` event.
ALTER TABLE "changes" DROP CONSTRAINT "changes_type_known";--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "lost_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "loans_may_be_lost_idx" ON "loans" USING btree ("id") WHERE "loans"."returned_at" is null and "loans"."lost_at" is null and "loans"."lost_after_days" is not null;--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_type_known" CHECK ("changes"."type" in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended', 'loan.renewed', 'loan.lost', 'copy.added', 'copy.withdrawn', 'copy.sent', 'copy.received', 'hold.placed', 'hold.in_transit', 'hold.ready', 'hold.ended', 'branch.closed', 'branch.reopened', 'account.charged', 'account.paid', 'account.waived'));--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_lost_after_due" CHECK ("loans"."lost_at" is null or "loans"."lost_at" > "loans"."due_at");--> statement-breakpoint
-- A loan declared lost (`lost_at` stamped by the lost-items job) is an event of the feed, `loan.lost`, private
-- like the loan's others (`borrower_id`). A return of a lost loan is `loan.ended` as any return.
CREATE OR REPLACE FUNCTION record_loan_changes() RETURNS trigger
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
      SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
      WHERE (o.returned_at IS NULL AND n.returned_at IS NOT NULL) OR (o.lost_at IS NULL AND n.lost_at IS NOT NULL)
    ) THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT CASE WHEN o.returned_at IS NULL AND n.returned_at IS NOT NULL THEN 'loan.ended' ELSE 'loan.lost' END,
      n.id, n.borrower_id, recorded
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE (o.returned_at IS NULL AND n.returned_at IS NOT NULL) OR (o.lost_at IS NULL AND n.lost_at IS NOT NULL)
    ORDER BY n.id;
  END IF;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
