CREATE TABLE "year_book_counts" (
	"publication_year" integer PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Books per publication year, kept like books per author (0004): by the statement-level triggers, in the
-- writing transaction, years locked in ascending order so that concurrent writers cannot deadlock.
CREATE OR REPLACE FUNCTION count_inserted_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_counts_add(TG_TABLE_NAME, (SELECT count(*) FROM new_rows));
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
-- A book moved to another author, or given another year, counts for the new one and no longer the old.
CREATE OR REPLACE FUNCTION count_moved_books() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO author_book_counts AS c (author_id, n)
  SELECT author_id, sum(delta) FROM (
    SELECT n.author_id, 1 AS delta FROM new_rows n JOIN old_rows o USING (id) WHERE n.author_id <> o.author_id
    UNION ALL
    SELECT o.author_id, -1 FROM new_rows n JOIN old_rows o USING (id) WHERE n.author_id <> o.author_id
  ) AS moves
  GROUP BY author_id ORDER BY author_id
  ON CONFLICT (author_id) DO UPDATE SET n = c.n + excluded.n;
  INSERT INTO year_book_counts AS c (publication_year, n)
  SELECT publication_year, sum(delta) FROM (
    SELECT n.publication_year, 1 AS delta
    FROM new_rows n JOIN old_rows o USING (id) WHERE n.publication_year <> o.publication_year
    UNION ALL
    SELECT o.publication_year, -1
    FROM new_rows n JOIN old_rows o USING (id) WHERE n.publication_year <> o.publication_year
  ) AS moves
  GROUP BY publication_year ORDER BY publication_year
  ON CONFLICT (publication_year) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_truncated_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM collection_counts WHERE collection = TG_TABLE_NAME;
  IF TG_TABLE_NAME = 'books' THEN
    DELETE FROM author_book_counts;
    DELETE FROM year_book_counts;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO year_book_counts (publication_year, n) SELECT publication_year, count(*) FROM books GROUP BY publication_year;
