-- Branches and transit (docs/access-and-loans.md, "Branches and transit"). A hold is collected at a pickup branch
-- (its borrower's home branch unless they name another; existing holds take their borrower's home branch). A
-- copy has a home (`branch_id`), a place where it is now (`location_branch_id`: its home for every existing copy)
-- and, while it travels, a destination (`transit_to_branch_id`). A hold whose copy travels to its pickup branch is
-- `in_transit`: given the copy, not yet ready, so it has no `ready_until` until the copy is received there.
ALTER TABLE "holds" ADD COLUMN "pickup_branch_id" integer;--> statement-breakpoint
UPDATE "holds" SET "pickup_branch_id" = "users"."home_branch_id" FROM "users" WHERE "users"."id" = "holds"."borrower_id";--> statement-breakpoint
ALTER TABLE "holds" ALTER COLUMN "pickup_branch_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_pickup_branch_id_branches_id_fk" FOREIGN KEY ("pickup_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "holds_pickup_branch_id_idx" ON "holds" USING btree ("pickup_branch_id");--> statement-breakpoint
ALTER TABLE "copies" ADD COLUMN "location_branch_id" integer;--> statement-breakpoint
ALTER TABLE "copies" ADD COLUMN "transit_to_branch_id" integer;--> statement-breakpoint
UPDATE "copies" SET "location_branch_id" = "branch_id";--> statement-breakpoint
ALTER TABLE "copies" ALTER COLUMN "location_branch_id" SET DEFAULT default_branch();--> statement-breakpoint
ALTER TABLE "copies" ALTER COLUMN "location_branch_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_location_branch_id_branches_id_fk" FOREIGN KEY ("location_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_transit_to_branch_id_branches_id_fk" FOREIGN KEY ("transit_to_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "copies_location_branch_id_idx" ON "copies" USING btree ("location_branch_id");--> statement-breakpoint
CREATE INDEX "copies_transit_to_branch_id_idx" ON "copies" USING btree ("transit_to_branch_id") WHERE "copies"."transit_to_branch_id" is not null;--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_transit_elsewhere" CHECK ("copies"."transit_to_branch_id" is null or "copies"."transit_to_branch_id" <> "copies"."location_branch_id");--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_withdrawn_not_in_transit" CHECK ("copies"."withdrawn_at" is null or "copies"."transit_to_branch_id" is null);--> statement-breakpoint
-- `in_transit` is open, as `waiting` and `ready` are: one open hold per user and book, one hold per copy given.
DROP INDEX "holds_one_open_per_borrower_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "holds_one_open_per_borrower_idx" ON "holds" USING btree ("book_id","borrower_id") WHERE "holds"."status" in ('waiting', 'in_transit', 'ready');--> statement-breakpoint
DROP INDEX "holds_one_ready_per_copy_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "holds_one_ready_per_copy_idx" ON "holds" USING btree ("copy_id") WHERE "holds"."status" in ('in_transit', 'ready');--> statement-breakpoint
DROP INDEX "holds_queue_idx";--> statement-breakpoint
CREATE INDEX "holds_queue_idx" ON "holds" USING btree ("book_id","placed_at","id") WHERE "holds"."status" in ('waiting', 'in_transit', 'ready');--> statement-breakpoint
ALTER TABLE "holds" DROP CONSTRAINT "holds_status_known";--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_status_known" CHECK ("holds"."status" in ('waiting', 'in_transit', 'ready', 'fulfilled', 'cancelled', 'expired'));--> statement-breakpoint
ALTER TABLE "holds" DROP CONSTRAINT "holds_ended_when_closed";--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_ended_when_closed" CHECK (("holds"."status" in ('waiting', 'in_transit', 'ready')) = ("holds"."ended_at" is null));--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_in_transit_has_copy" CHECK ("holds"."status" <> 'in_transit' or ("holds"."copy_id" is not null and "holds"."ready_at" is null and "holds"."ready_until" is null));--> statement-breakpoint
ALTER TABLE "changes" DROP CONSTRAINT "changes_type_known";--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_type_known" CHECK ("changes"."type" in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended', 'loan.renewed', 'copy.added', 'copy.withdrawn', 'copy.sent', 'copy.received', 'hold.placed', 'hold.in_transit', 'hold.ready', 'hold.ended', 'branch.closed', 'branch.reopened'));--> statement-breakpoint
-- Settling a book (every circulation step ends with it, under the book's row lock):
--   1. ready holds whose time ran out by `business_now` expire;
--   2. copies on the shelf (not withdrawn, not lent, not in transit, not given to a hold) go to the waiting
--      holds, strictly first come first served, wherever each is collected: a copy where its hold is collected
--      is set aside there (`ready`, until hold_days later); a copy elsewhere is sent there (the hold is
--      `in_transit` and the copy travels to the pickup branch);
--   3. a copy left on the shelf away from its home goes home, unless its last loan floated (it stays where it was
--      returned);
--   4. the book's counters are set to what is now true: `copies_available` counts the copies on the shelf.
CREATE OR REPLACE FUNCTION settle_circulation(settled_book integer, hold_days integer, business_now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  total integer;
  on_shelf integer;
BEGIN
  UPDATE holds SET status = 'expired', ended_at = greatest(ready_until, ready_at)
  WHERE book_id = settled_book AND status = 'ready' AND ready_until <= business_now;

  WITH shelf AS (
    SELECT c.id, c.location_branch_id, row_number() OVER (ORDER BY c.id) AS n
    FROM copies c
    WHERE c.book_id = settled_book AND c.withdrawn_at IS NULL AND c.transit_to_branch_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.copy_id = c.id AND l.returned_at IS NULL)
      AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.copy_id = c.id AND h.status IN ('in_transit', 'ready'))
  ), queue AS (
    SELECT h.id, h.pickup_branch_id, row_number() OVER (ORDER BY h.placed_at, h.id) AS n
    FROM holds h WHERE h.book_id = settled_book AND h.status = 'waiting'
  )
  UPDATE holds SET
    status = CASE WHEN shelf.location_branch_id = queue.pickup_branch_id THEN 'ready' ELSE 'in_transit' END,
    copy_id = shelf.id,
    ready_at = CASE WHEN shelf.location_branch_id = queue.pickup_branch_id THEN business_now END,
    ready_until = CASE WHEN shelf.location_branch_id = queue.pickup_branch_id
      THEN business_now + make_interval(days => hold_days) END
  FROM queue JOIN shelf USING (n)
  WHERE holds.id = queue.id;

  UPDATE copies c SET transit_to_branch_id = h.pickup_branch_id
  FROM holds h
  WHERE h.book_id = settled_book AND h.status = 'in_transit' AND h.copy_id = c.id
    AND c.transit_to_branch_id IS DISTINCT FROM h.pickup_branch_id;

  UPDATE copies c SET transit_to_branch_id = c.branch_id
  WHERE c.book_id = settled_book AND c.withdrawn_at IS NULL AND c.transit_to_branch_id IS NULL
    AND c.location_branch_id <> c.branch_id
    AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.copy_id = c.id AND l.returned_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.copy_id = c.id AND h.status IN ('in_transit', 'ready'))
    -- The book's loans newest first (loans_book_id_idx): the copy's last one says whether it floats.
    AND NOT coalesce((SELECT l.floating FROM loans l WHERE l.book_id = settled_book AND l.copy_id = c.id
      ORDER BY l.id DESC LIMIT 1), false);

  SELECT count(*) FILTER (WHERE c.withdrawn_at IS NULL),
         count(*) FILTER (
           WHERE c.withdrawn_at IS NULL AND c.transit_to_branch_id IS NULL
             AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.copy_id = c.id AND l.returned_at IS NULL)
             AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.copy_id = c.id AND h.status IN ('in_transit', 'ready')))
  INTO total, on_shelf
  FROM copies c WHERE c.book_id = settled_book;

  UPDATE books SET copies_total = total, copies_available = on_shelf
  WHERE id = settled_book AND (copies_total, copies_available) IS DISTINCT FROM (total, on_shelf);
END
$$;
--> statement-breakpoint
-- The change feed's circulation events: a copy's movements are public (`copy.sent` when it sets off for a
-- branch, `copy.received` when it arrives), as its being added or withdrawn is; a hold's are its borrower's
-- (`hold.in_transit` when a copy is on its way to them), as every hold event is.
CREATE OR REPLACE FUNCTION record_circulation_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  events jsonb;
  recorded timestamptz;
BEGIN
  IF TG_TABLE_NAME = 'copies' AND TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_array('copy.added', id, NULL) ORDER BY id) INTO events FROM new_rows;
  ELSIF TG_TABLE_NAME = 'copies' THEN
    SELECT jsonb_agg(jsonb_build_array(moved.type, moved.id, NULL) ORDER BY moved.id) INTO events
    FROM (
      SELECT n.id, CASE
        WHEN o.withdrawn_at IS NULL AND n.withdrawn_at IS NOT NULL THEN 'copy.withdrawn'
        WHEN n.transit_to_branch_id IS NOT NULL
          AND n.transit_to_branch_id IS DISTINCT FROM o.transit_to_branch_id THEN 'copy.sent'
        WHEN o.transit_to_branch_id IS NOT NULL AND n.transit_to_branch_id IS NULL THEN 'copy.received'
      END AS type
      FROM new_rows n JOIN old_rows o USING (id)
    ) AS moved
    WHERE moved.type IS NOT NULL;
  ELSIF TG_TABLE_NAME = 'holds' AND TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_array('hold.placed', id, borrower_id) ORDER BY id) INTO events FROM new_rows;
  ELSIF TG_TABLE_NAME = 'holds' THEN
    SELECT jsonb_agg(
      jsonb_build_array(CASE n.status WHEN 'ready' THEN 'hold.ready' WHEN 'in_transit' THEN 'hold.in_transit'
        ELSE 'hold.ended' END, n.id, n.borrower_id)
      ORDER BY n.id) INTO events
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('in_transit', 'ready', 'fulfilled', 'cancelled', 'expired');
  ELSE
    SELECT jsonb_agg(jsonb_build_array('loan.renewed', n.id, n.borrower_id) ORDER BY n.id) INTO events
    FROM new_rows n JOIN old_rows o USING (id) WHERE n.renewals > o.renewals;
  END IF;
  IF events IS NULL THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(7305413);
  recorded := clock_timestamp();
  INSERT INTO changes (type, resource_id, borrower_id, at)
  SELECT e ->> 0, (e ->> 1)::integer, (e ->> 2)::integer, recorded
  FROM jsonb_array_elements(events) WITH ORDINALITY AS t(e, n) ORDER BY n;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A new book's first copy is at home at the default branch: looked up once per statement, not once per copy
-- and column (a generated catalogue inserts a million books in a few statements).
CREATE OR REPLACE FUNCTION books_stock_first_copy() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  home integer := default_branch();
BEGIN
  INSERT INTO copies (book_id, branch_id, location_branch_id) SELECT id, home, home FROM new_rows ORDER BY id;
  RETURN NULL;
END
$$;
