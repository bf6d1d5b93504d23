CREATE TABLE "copies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "copies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"book_id" integer NOT NULL,
	"barcode" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "copies_id_book_id_key" UNIQUE("id","book_id"),
	CONSTRAINT "copies_barcode_not_blank" CHECK ("copies"."barcode" is null or btrim("copies"."barcode") <> ''),
	CONSTRAINT "copies_barcode_length" CHECK ("copies"."barcode" is null or char_length("copies"."barcode") <= 64)
);
--> statement-breakpoint
CREATE TABLE "holds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "holds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"book_id" integer NOT NULL,
	"borrower_id" integer NOT NULL,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"copy_id" integer,
	"ready_at" timestamp with time zone,
	"ready_until" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"loan_id" integer,
	CONSTRAINT "holds_status_known" CHECK ("holds"."status" in ('waiting', 'ready', 'fulfilled', 'cancelled', 'expired')),
	CONSTRAINT "holds_ready_has_copy" CHECK ("holds"."status" <> 'ready' or ("holds"."copy_id" is not null and "holds"."ready_until" is not null and "holds"."ready_at" is not null)),
	CONSTRAINT "holds_ended_when_closed" CHECK (("holds"."status" in ('waiting', 'ready')) = ("holds"."ended_at" is null)),
	CONSTRAINT "holds_fulfilled_by_loan" CHECK (("holds"."status" = 'fulfilled') = ("holds"."loan_id" is not null))
);
--> statement-breakpoint
DROP INDEX "loans_one_active_per_book_idx";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "copies_total" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "copies_available" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "copy_id" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "renewals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "copies" ADD CONSTRAINT "copies_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_borrower_id_users_id_fk" FOREIGN KEY ("borrower_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_copy_id_book_id_copies_id_book_id_fk" FOREIGN KEY ("copy_id","book_id") REFERENCES "public"."copies"("id","book_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "copies_barcode_idx" ON "copies" USING btree ("barcode");--> statement-breakpoint
CREATE INDEX "copies_book_id_id_idx" ON "copies" USING btree ("book_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "holds_one_open_per_borrower_idx" ON "holds" USING btree ("book_id","borrower_id") WHERE "holds"."status" in ('waiting', 'ready');--> statement-breakpoint
CREATE UNIQUE INDEX "holds_one_ready_per_copy_idx" ON "holds" USING btree ("copy_id") WHERE "holds"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "holds_queue_idx" ON "holds" USING btree ("book_id","placed_at","id") WHERE "holds"."status" in ('waiting', 'ready');--> statement-breakpoint
CREATE INDEX "holds_borrower_id_idx" ON "holds" USING btree ("borrower_id","id");--> statement-breakpoint
CREATE INDEX "holds_book_id_idx" ON "holds" USING btree ("book_id","id");--> statement-breakpoint
CREATE INDEX "holds_ready_until_idx" ON "holds" USING btree ("ready_until") WHERE "holds"."status" = 'ready';--> statement-breakpoint
-- Every book so far was one lendable thing: it becomes a book with one copy, and each of its loans a loan of
-- that copy. Nothing is lost, and every answer the API gave keeps its meaning (available = the copy is in).
INSERT INTO "copies" ("book_id") SELECT "id" FROM "books" ORDER BY "id";--> statement-breakpoint
UPDATE "loans" SET "copy_id" = "copies"."id" FROM "copies" WHERE "copies"."book_id" = "loans"."book_id";--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "copy_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_copy_id_book_id_copies_id_book_id_fk" FOREIGN KEY ("copy_id","book_id") REFERENCES "public"."copies"("id","book_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "books_copies_available_id_idx" ON "books" USING btree ("copies_available","id");--> statement-breakpoint
CREATE INDEX "books_copies_available_desc_id_idx" ON "books" USING btree ("copies_available" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE UNIQUE INDEX "loans_one_active_per_copy_idx" ON "loans" USING btree ("copy_id") WHERE "loans"."returned_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "loans_one_active_per_borrower_and_book_idx" ON "loans" USING btree ("book_id","borrower_id") WHERE "loans"."returned_at" is null;--> statement-breakpoint
-- The change feed's book.updated is a change of what a librarian wrote: the counters circulation keeps are
-- not (loan, hold and copy events say what happened), nor the search vector.
CREATE OR REPLACE FUNCTION record_catalogue_changes() RETURNS trigger
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
    SELECT array_agg(n.id ORDER BY n.id) INTO ids
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE (to_jsonb(n) - 'search' - 'copies_total' - 'copies_available')
      IS DISTINCT FROM (to_jsonb(o) - 'search' - 'copies_total' - 'copies_available');
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
UPDATE "books" SET "copies_available" = 0
WHERE EXISTS (SELECT 1 FROM "loans" WHERE "loans"."book_id" = "books"."id" AND "loans"."returned_at" IS NULL);--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_copies_counted" CHECK ("books"."copies_available" between 0 and "books"."copies_total");--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_renewals_not_negative" CHECK ("loans"."renewals" >= 0);--> statement-breakpoint
-- A new book comes with one copy, as every book had one before copies were counted; librarians add more
-- or withdraw it. (The counters' defaults, 1 and 1, already say so.)
CREATE FUNCTION books_stock_first_copy() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO copies (book_id) SELECT id FROM new_rows ORDER BY id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Named to fire after books_record_inserted (triggers of one event fire in name order): the feed says
-- book.created before the copy.added of its first copy.
CREATE TRIGGER books_stock_first_copy AFTER INSERT ON books REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION books_stock_first_copy();
--> statement-breakpoint
-- Circulation (docs/access-and-loans.md). Every change to a book's copies, loans or holds runs in a
-- transaction that first locks the book's row (FOR NO KEY UPDATE) and ends by calling this function, so
-- the steps of one book's circulation happen one at a time whichever process runs them:
--   1. ready holds whose time ran out expire;
--   2. copies on the shelf (not withdrawn, not lent, not set aside) go to the waiting holds, first come
--      first served: each becomes `ready` until hold_days from now;
--   3. the book's counters are set to what is now true.
-- The partial unique indexes (one active loan per copy, one ready hold per copy, one open hold per user
-- and book) hold whatever a caller forgets to lock.
CREATE FUNCTION settle_circulation(settled_book integer, hold_days integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  total integer;
  on_shelf integer;
BEGIN
  UPDATE holds SET status = 'expired', ended_at = greatest(ready_until, ready_at)
  WHERE book_id = settled_book AND status = 'ready' AND ready_until <= now();

  WITH shelf AS (
    SELECT c.id, row_number() OVER (ORDER BY c.id) AS n
    FROM copies c
    WHERE c.book_id = settled_book AND c.withdrawn_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.copy_id = c.id AND l.returned_at IS NULL)
      AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.copy_id = c.id AND h.status = 'ready')
  ), queue AS (
    SELECT h.id, row_number() OVER (ORDER BY h.placed_at, h.id) AS n
    FROM holds h WHERE h.book_id = settled_book AND h.status = 'waiting'
  )
  UPDATE holds SET status = 'ready', copy_id = shelf.id, ready_at = now(),
    ready_until = now() + make_interval(days => hold_days)
  FROM queue JOIN shelf USING (n)
  WHERE holds.id = queue.id;

  SELECT count(*) FILTER (WHERE c.withdrawn_at IS NULL),
         count(*) FILTER (
           WHERE c.withdrawn_at IS NULL
             AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.copy_id = c.id AND l.returned_at IS NULL)
             AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.copy_id = c.id AND h.status = 'ready'))
  INTO total, on_shelf
  FROM copies c WHERE c.book_id = settled_book;

  UPDATE books SET copies_total = total, copies_available = on_shelf
  WHERE id = settled_book AND (copies_total, copies_available) IS DISTINCT FROM (total, on_shelf);
END
$$;
--> statement-breakpoint
-- Ready holds whose time ran out, on every book that has one: what each server process runs every few
-- seconds, so that an expired hold passes its copy on without waiting for the book's next circulation.
-- Books are locked in id order (as one circulation step locks one book, no two sweeps deadlock) and a book
-- some other transaction holds is left to that transaction, which settles it itself.
CREATE FUNCTION expire_ready_holds(hold_days integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  due_book integer;
  settled integer := 0;
BEGIN
  FOR due_book IN
    SELECT DISTINCT book_id FROM holds WHERE status = 'ready' AND ready_until <= now() ORDER BY book_id
  LOOP
    PERFORM 1 FROM books WHERE id = due_book FOR NO KEY UPDATE SKIP LOCKED;
    IF FOUND THEN
      PERFORM settle_circulation(due_book, hold_days);
      settled := settled + 1;
    END IF;
  END LOOP;
  RETURN settled;
END
$$;
--> statement-breakpoint
-- The change feed carries circulation too: copies added and withdrawn (public, like the catalogue), holds
-- placed, ready and ended, and renewals (private to the borrower, like loans: borrower_id says whose).
ALTER TABLE "changes" DROP CONSTRAINT "changes_type_known";--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_type_known" CHECK ("changes"."type" in ('book.created', 'book.updated', 'book.deleted', 'author.created', 'author.updated', 'author.deleted', 'loan.started', 'loan.ended', 'loan.renewed', 'copy.added', 'copy.withdrawn', 'hold.placed', 'hold.ready', 'hold.ended'));--> statement-breakpoint
-- Events are gathered first and numbered only if there are any: the lock is taken just before numbers are.
CREATE FUNCTION record_circulation_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  events jsonb;
  recorded timestamptz;
BEGIN
  IF TG_TABLE_NAME = 'copies' AND TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_array('copy.added', id, NULL) ORDER BY id) INTO events FROM new_rows;
  ELSIF TG_TABLE_NAME = 'copies' THEN
    SELECT jsonb_agg(jsonb_build_array('copy.withdrawn', n.id, NULL) ORDER BY n.id) INTO events
    FROM new_rows n JOIN old_rows o USING (id) WHERE o.withdrawn_at IS NULL AND n.withdrawn_at IS NOT NULL;
  ELSIF TG_TABLE_NAME = 'holds' AND TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_array('hold.placed', id, borrower_id) ORDER BY id) INTO events FROM new_rows;
  ELSIF TG_TABLE_NAME = 'holds' THEN
    SELECT jsonb_agg(
      jsonb_build_array(CASE WHEN n.status = 'ready' THEN 'hold.ready' ELSE 'hold.ended' END, n.id, n.borrower_id)
      ORDER BY n.id) INTO events
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('ready', 'fulfilled', 'cancelled', 'expired');
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
CREATE TRIGGER copies_record_inserted AFTER INSERT ON copies REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_circulation_changes();
--> statement-breakpoint
CREATE TRIGGER copies_record_updated AFTER UPDATE ON copies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_circulation_changes();
--> statement-breakpoint
CREATE TRIGGER holds_record_inserted AFTER INSERT ON holds REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_circulation_changes();
--> statement-breakpoint
CREATE TRIGGER holds_record_updated AFTER UPDATE ON holds REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_circulation_changes();
--> statement-breakpoint
CREATE TRIGGER loans_record_renewed AFTER UPDATE ON loans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION record_circulation_changes();
--> statement-breakpoint
-- The holds a user has open are part of what each process remembers about a caller (the cap on holds):
-- a hold placed or ended makes every process forget that user, as a loan does (migration 0007).
CREATE TRIGGER holds_notify_callers
AFTER INSERT OR UPDATE OR DELETE ON holds
FOR EACH ROW EXECUTE FUNCTION notify_caller_changed('borrower_id');
