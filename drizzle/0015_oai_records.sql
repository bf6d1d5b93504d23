CREATE TABLE "oai_records" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"datestamp" timestamp with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "oai_records_datestamp_book_id_idx" ON "oai_records" USING btree ("datestamp","book_id");--> statement-breakpoint
-- OAI-PMH (docs/records.md, "OAI-PMH"): each book's record and its datestamp, the time of its last change,
-- kept from the change feed as it is written, so that the two never disagree whichever path wrote the
-- change (the API, an import, the CLI, psql).
--
-- A record changes when its book does, and when its author is renamed (the record names the author). A
-- book's deletion leaves a tombstone (`deleted`) that lives as long as the `book.deleted` event does.
--
-- The feed's events are written under its transaction-scoped advisory lock (0010), held until commit, and
-- so is this stamp: a stamp is never earlier than any stamp before it (`greatest` with the newest, in case
-- the clock steps back), and a transaction that commits later stamps later. A harvester reading pages in
-- (datestamp, book_id) order therefore never has a record committed behind its position.
CREATE FUNCTION stamp_oai_records() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  newest timestamptz;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE type LIKE 'book.%' OR type = 'author.updated') THEN
    RETURN NULL;
  END IF;
  SELECT max(datestamp) INTO newest FROM oai_records;
  INSERT INTO oai_records (book_id, datestamp, deleted)
  SELECT DISTINCT ON (resource_id) resource_id, greatest(at, newest), type = 'book.deleted'
  FROM new_rows
  WHERE type IN ('book.created', 'book.updated', 'book.deleted')
  ORDER BY resource_id, id DESC
  ON CONFLICT (book_id) DO UPDATE SET datestamp = excluded.datestamp, deleted = excluded.deleted;
  UPDATE oai_records r SET datestamp = greatest(c.at, newest)
  FROM new_rows c JOIN books b ON b.author_id = c.resource_id
  WHERE c.type = 'author.updated' AND r.book_id = b.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER changes_stamp_oai_records AFTER INSERT ON changes REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stamp_oai_records();
--> statement-breakpoint
-- Retention: a tombstone goes when the feed's pruning removes its book's `book.deleted` event.
CREATE FUNCTION forget_oai_tombstones() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM oai_records r
  USING old_rows c
  WHERE c.type = 'book.deleted' AND r.book_id = c.resource_id AND r.deleted;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER changes_forget_oai_tombstones AFTER DELETE ON changes REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION forget_oai_tombstones();
--> statement-breakpoint
-- The books there are, stamped with their last change the feed still holds; a book whose events were all
-- pruned changed last before the feed's horizon, and is stamped with it.
INSERT INTO oai_records (book_id, datestamp, deleted)
SELECT b.id, greatest(h.begins_at, bc.at, ac.at), false
FROM books b
CROSS JOIN changes_horizon h
LEFT JOIN (
  SELECT resource_id, max(at) AS at FROM changes WHERE type IN ('book.created', 'book.updated') GROUP BY resource_id
) bc ON bc.resource_id = b.id
LEFT JOIN (
  SELECT resource_id, max(at) AS at FROM changes WHERE type = 'author.updated' GROUP BY resource_id
) ac ON ac.resource_id = b.author_id;
--> statement-breakpoint
-- And the books deleted within the feed's reach.
INSERT INTO oai_records (book_id, datestamp, deleted)
SELECT c.resource_id, max(c.at), true
FROM changes c
WHERE c.type = 'book.deleted' AND NOT EXISTS (SELECT 1 FROM books b WHERE b.id = c.resource_id)
GROUP BY c.resource_id;
