-- A statement of any size: ten million books in one INSERT … SELECT, and a page=N jump at any depth.
--
-- Statement triggers no longer gather a statement's rows into one value (a jsonb array of every new copy's
-- event, an array of every updated id, an array of every deleted title's words): such a value grows with the
-- statement, and past 256 MB (jsonb) or 1 GB (any value) the statement fails; below that it is held in memory
-- whole. Each trigger now checks that it has something to record, then writes its rows straight from the
-- transition table with one INSERT … SELECT (or UPDATE … FROM), which the executor streams: a sort beyond
-- work_mem spills to disk. The feed's events are unchanged: one per row, in id order, with one timestamp.
CREATE OR REPLACE FUNCTION record_circulation_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  recorded timestamptz;
BEGIN
  IF TG_TABLE_NAME = 'copies' AND TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'copy.added', id, NULL, recorded FROM new_rows ORDER BY id;
  ELSIF TG_TABLE_NAME = 'copies' THEN
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
      WHERE (o.withdrawn_at IS NULL AND n.withdrawn_at IS NOT NULL)
        OR (n.transit_to_branch_id IS NOT NULL AND n.transit_to_branch_id IS DISTINCT FROM o.transit_to_branch_id)
        OR (o.transit_to_branch_id IS NOT NULL AND n.transit_to_branch_id IS NULL)
    ) THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT moved.type, moved.id, NULL, recorded
    FROM (
      SELECT n.id, CASE
        WHEN o.withdrawn_at IS NULL AND n.withdrawn_at IS NOT NULL THEN 'copy.withdrawn'
        WHEN n.transit_to_branch_id IS NOT NULL
          AND n.transit_to_branch_id IS DISTINCT FROM o.transit_to_branch_id THEN 'copy.sent'
        WHEN o.transit_to_branch_id IS NOT NULL AND n.transit_to_branch_id IS NULL THEN 'copy.received'
      END AS type
      FROM new_rows n JOIN old_rows o USING (id)
    ) AS moved
    WHERE moved.type IS NOT NULL
    ORDER BY moved.id;
  ELSIF TG_TABLE_NAME = 'holds' AND TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'hold.placed', id, borrower_id, recorded FROM new_rows ORDER BY id;
  ELSIF TG_TABLE_NAME = 'holds' THEN
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
      WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('in_transit', 'ready', 'fulfilled', 'cancelled', 'expired')
    ) THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT CASE n.status WHEN 'ready' THEN 'hold.ready' WHEN 'in_transit' THEN 'hold.in_transit' ELSE 'hold.ended' END,
      n.id, n.borrower_id, recorded
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('in_transit', 'ready', 'fulfilled', 'cancelled', 'expired')
    ORDER BY n.id;
  ELSE
    IF NOT EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o USING (id) WHERE n.renewals > o.renewals) THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, borrower_id, at)
    SELECT 'loan.renewed', n.id, n.borrower_id, recorded
    FROM new_rows n JOIN old_rows o USING (id) WHERE n.renewals > o.renewals
    ORDER BY n.id;
  END IF;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION record_catalogue_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
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
    -- Derived columns (the search vector, the author's name, the copy counts) changing alone are no event.
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
      WHERE (to_jsonb(n) - 'search' - 'author_name' - 'copies_total' - 'copies_available')
        IS DISTINCT FROM (to_jsonb(o) - 'search' - 'author_name' - 'copies_total' - 'copies_available')
    ) THEN
      RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(7305413);
    recorded := clock_timestamp();
    INSERT INTO changes (type, resource_id, at)
    SELECT kind || '.updated', n.id, recorded
    FROM new_rows n JOIN old_rows o USING (id)
    WHERE (to_jsonb(n) - 'search' - 'author_name' - 'copies_total' - 'copies_available')
      IS DISTINCT FROM (to_jsonb(o) - 'search' - 'author_name' - 'copies_total' - 'copies_available')
    ORDER BY n.id;
  END IF;
  PERFORM pg_notify('catalogue_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The words of deleted titles (or names) are counted by a GROUP BY over the transition table, as inserted
-- ones are (`count_inserted_words`), not first gathered into one array of every word of every row.
CREATE OR REPLACE FUNCTION count_deleted_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows) THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(7305413);
  IF TG_ARGV[0] = 'titles' THEN
    UPDATE search_words AS s SET in_titles = s.in_titles - d.n
    FROM (SELECT word, count(*)::integer AS n FROM old_rows, catalogue_word_set(title) AS word GROUP BY word) AS d
    WHERE s.word = d.word;
    DELETE FROM search_words
    WHERE in_titles = 0 AND in_names = 0 AND word IN (SELECT word FROM old_rows, catalogue_word_set(title) AS word);
  ELSE
    UPDATE search_words AS s SET in_names = s.in_names - d.n
    FROM (SELECT word, count(*)::integer AS n FROM old_rows, catalogue_word_set(name) AS word GROUP BY word) AS d
    WHERE s.word = d.word;
    DELETE FROM search_words
    WHERE in_titles = 0 AND in_names = 0 AND word IN (SELECT word FROM old_rows, catalogue_word_set(name) AS word);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Rows per block of 4,096 ids, per collection (`books`, `authors`), spread over shards like
-- `collection_counts`: a page=N jump in id order finds the block its first item is in by summing these
-- (a few thousand rows at ten million books), then skips fewer than 4,096 rows of the id index inside it,
-- instead of an OFFSET walk over every item before the page.
CREATE TABLE collection_block_counts (
  collection text NOT NULL,
  block integer NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (collection, block, shard)
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_inserted_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_counts_add(TG_TABLE_NAME, (SELECT count(*) FROM new_rows));
  INSERT INTO collection_block_counts AS c (collection, block, shard, n)
  SELECT TG_TABLE_NAME, id >> 12, (pg_backend_pid() % 8)::smallint, count(*) FROM new_rows GROUP BY 2 ORDER BY 2
  ON CONFLICT (collection, block, shard) DO UPDATE SET n = c.n + excluded.n;
  IF TG_TABLE_NAME = 'books' THEN
    INSERT INTO author_book_counts AS c (author_id, n)
    SELECT author_id, count(*) FROM new_rows GROUP BY author_id ORDER BY author_id
    ON CONFLICT (author_id) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO year_book_counts AS c (publication_year, n)
    SELECT publication_year, count(*) FROM new_rows GROUP BY publication_year ORDER BY publication_year
    ON CONFLICT (publication_year) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_deleted_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_counts_add(TG_TABLE_NAME, -(SELECT count(*) FROM old_rows));
  INSERT INTO collection_block_counts AS c (collection, block, shard, n)
  SELECT TG_TABLE_NAME, id >> 12, (pg_backend_pid() % 8)::smallint, -count(*) FROM old_rows GROUP BY 2 ORDER BY 2
  ON CONFLICT (collection, block, shard) DO UPDATE SET n = c.n + excluded.n;
  IF TG_TABLE_NAME = 'books' THEN
    INSERT INTO author_book_counts AS c (author_id, n)
    SELECT author_id, -count(*) FROM old_rows GROUP BY author_id ORDER BY author_id
    ON CONFLICT (author_id) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO year_book_counts AS c (publication_year, n)
    SELECT publication_year, -count(*) FROM old_rows GROUP BY publication_year ORDER BY publication_year
    ON CONFLICT (publication_year) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_truncated_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM collection_counts WHERE collection = TG_TABLE_NAME;
  DELETE FROM collection_block_counts WHERE collection = TG_TABLE_NAME;
  IF TG_TABLE_NAME = 'books' THEN
    DELETE FROM author_book_counts;
    DELETE FROM year_book_counts;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO collection_block_counts (collection, block, shard, n)
SELECT 'books', id >> 12, 0, count(*) FROM books GROUP BY 2
UNION ALL
SELECT 'authors', id >> 12, 0, count(*) FROM authors GROUP BY 2;
