CREATE TABLE "author_book_counts" (
	"author_id" integer PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collection_counts" (
	"collection" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "collection_counts_collection_shard_pk" PRIMARY KEY("collection","shard")
);
--> statement-breakpoint
ALTER TABLE "author_book_counts" ADD CONSTRAINT "author_book_counts_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authors_name_desc_id_idx" ON "authors" USING btree ("name" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "books_title_desc_id_idx" ON "books" USING btree ("title" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "books_publication_year_desc_id_idx" ON "books" USING btree ("publication_year" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "books_author_id_desc_id_idx" ON "books" USING btree ("author_id" DESC NULLS FIRST,"id");--> statement-breakpoint
-- Row counters, kept in the writing transaction by statement-level triggers (one counter update per
-- statement, however many rows it writes: a bulk load pays once). A collection's count is spread over
-- 8 shards picked by the writer's backend, so concurrent writers rarely queue on one counter row; the
-- total is the sum of at most 8 rows. Books per author serialise writers of the same author only.
CREATE FUNCTION collection_counts_add(counted text, delta bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO collection_counts AS c (collection, shard, n)
  VALUES (counted, (pg_backend_pid() % 8)::smallint, delta)
  ON CONFLICT (collection, shard) DO UPDATE SET n = c.n + excluded.n
$$;
--> statement-breakpoint
CREATE FUNCTION count_inserted_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_counts_add(TG_TABLE_NAME, (SELECT count(*) FROM new_rows));
  IF TG_TABLE_NAME = 'books' THEN
    INSERT INTO author_book_counts AS c (author_id, n)
    SELECT author_id, count(*) FROM new_rows GROUP BY author_id ORDER BY author_id
    ON CONFLICT (author_id) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION count_deleted_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM collection_counts_add(TG_TABLE_NAME, -(SELECT count(*) FROM old_rows));
  IF TG_TABLE_NAME = 'books' THEN
    INSERT INTO author_book_counts AS c (author_id, n)
    SELECT author_id, -count(*) FROM old_rows GROUP BY author_id ORDER BY author_id
    ON CONFLICT (author_id) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A book moved to another author counts for the new one and no longer for the old one.
CREATE FUNCTION count_moved_books() RETURNS trigger
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
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION count_truncated_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM collection_counts WHERE collection = TG_TABLE_NAME;
  IF TG_TABLE_NAME = 'books' THEN DELETE FROM author_book_counts; END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_count_inserted AFTER INSERT ON books REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_rows();
--> statement-breakpoint
CREATE TRIGGER books_count_deleted AFTER DELETE ON books REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_rows();
--> statement-breakpoint
CREATE TRIGGER books_count_moved AFTER UPDATE ON books REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_moved_books();
--> statement-breakpoint
CREATE TRIGGER books_count_truncated AFTER TRUNCATE ON books
FOR EACH STATEMENT EXECUTE FUNCTION count_truncated_rows();
--> statement-breakpoint
CREATE TRIGGER authors_count_inserted AFTER INSERT ON authors REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_rows();
--> statement-breakpoint
CREATE TRIGGER authors_count_deleted AFTER DELETE ON authors REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_rows();
--> statement-breakpoint
CREATE TRIGGER authors_count_truncated AFTER TRUNCATE ON authors
FOR EACH STATEMENT EXECUTE FUNCTION count_truncated_rows();
--> statement-breakpoint
INSERT INTO collection_counts (collection, shard, n)
SELECT 'books', 0, count(*) FROM books UNION ALL SELECT 'authors', 0, count(*) FROM authors;
--> statement-breakpoint
INSERT INTO author_book_counts (author_id, n) SELECT author_id, count(*) FROM books GROUP BY author_id;
