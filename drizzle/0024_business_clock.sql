-- Business time comes from the service's clock (src/domain/clock.ts), passed in as a parameter (`business_now`), never read
-- from the database's `now()`: a test moves one clock past a due date or a hold's `ready_until` and every
-- read and step agrees, and a server's answers follow the same clock as its SQL. The tables do not change;
-- the two circulation functions take the time as `business_now`, replacing the versions that read `now()`.
DROP FUNCTION settle_circulation(integer, integer);--> statement-breakpoint
DROP FUNCTION expire_ready_holds(integer);--> statement-breakpoint
-- Circulation (docs/access-and-loans.md). Every change to a book's copies, loans or holds runs in a
-- transaction that first locks the book's row (FOR NO KEY UPDATE) and ends by calling this function, so
-- the steps of one book's circulation happen one at a time whichever process runs them:
--   1. ready holds whose time ran out by `business_now` expire;
--   2. copies on the shelf (not withdrawn, not lent, not set aside) go to the waiting holds, first come
--      first served: each becomes `ready` at `business_now`, until hold_days later;
--   3. the book's counters are set to what is now true.
-- The partial unique indexes (one active loan per copy, one ready hold per copy, one open hold per user
-- and book) hold whatever a caller forgets to lock.
CREATE FUNCTION settle_circulation(settled_book integer, hold_days integer, business_now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  total integer;
  on_shelf integer;
BEGIN
  UPDATE holds SET status = 'expired', ended_at = greatest(ready_until, ready_at)
  WHERE book_id = settled_book AND status = 'ready' AND ready_until <= business_now;

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
  UPDATE holds SET status = 'ready', copy_id = shelf.id, ready_at = business_now,
    ready_until = business_now + make_interval(days => hold_days)
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
-- Ready holds whose time ran out by `business_now`, on every book that has one: what each server process runs every
-- few seconds, so that an expired hold passes its copy on without waiting for the book's next circulation.
-- Books are locked in id order (as one circulation step locks one book, no two sweeps deadlock) and a book
-- some other transaction holds is left to that transaction, which settles it itself.
CREATE FUNCTION expire_ready_holds(hold_days integer, business_now timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  due_book integer;
  settled integer := 0;
BEGIN
  FOR due_book IN
    SELECT DISTINCT book_id FROM holds WHERE status = 'ready' AND ready_until <= business_now ORDER BY book_id
  LOOP
    PERFORM 1 FROM books WHERE id = due_book FOR NO KEY UPDATE SKIP LOCKED;
    IF FOUND THEN
      PERFORM settle_circulation(due_book, hold_days, business_now);
      settled := settled + 1;
    END IF;
  END LOOP;
  RETURN settled;
END
$$;
