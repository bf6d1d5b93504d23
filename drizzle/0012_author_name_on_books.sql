ALTER TABLE "books" ADD COLUMN "author_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The change feed's book.updated is a change of what a librarian wrote: the author's name on a book is
-- the author's (their author.updated says it changed), like the search vector and the circulation counters.
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
    WHERE (to_jsonb(n) - 'search' - 'author_name' - 'copies_total' - 'copies_available')
      IS DISTINCT FROM (to_jsonb(o) - 'search' - 'author_name' - 'copies_total' - 'copies_available');
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
UPDATE "books" SET "author_name" = "authors"."name" FROM "authors" WHERE "authors"."id" = "books"."author_id";
--> statement-breakpoint
-- What a book is found by: its title (weight A) and its author's name (weight B). One definition for the
-- two triggers below, which both have the name at hand: books_search_vector (0002) read it again per book.
CREATE FUNCTION books_search_of(book_title text, author_name text) RETURNS tsvector
LANGUAGE sql IMMUTABLE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, book_title), 'A')
      || setweight(to_tsvector('english'::regconfig, author_name), 'B')
$$;
--> statement-breakpoint
-- A book's search vector and author's name, from its title and its author. FOR SHARE: a rename of the
-- author waits until this book is committed, or this book until the rename is, so the rename's refresh
-- of the author's books (below) never misses one, and never leaves one with the name it had. An author_id
-- that names no author leaves the name empty, for the foreign key to refuse the book as it always has.
CREATE OR REPLACE FUNCTION books_search_refresh() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  found text;
BEGIN
  SELECT name INTO found FROM authors WHERE id = NEW.author_id FOR SHARE;
  NEW.author_name := coalesce(found, '');
  NEW.search := books_search_of(NEW.title, NEW.author_name);
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- A renamed author changes what their books are found by, and the name they show.
CREATE OR REPLACE FUNCTION authors_name_refresh_books() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE books SET search = books_search_of(title, NEW.name), author_name = NEW.name WHERE author_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP FUNCTION books_search_vector(text, integer);
