-- Search that forgives: accents folded in the index and the query alike (unaccent), misspelt words
-- corrected to the catalogue's own words within an edit distance (fuzzystrmatch's levenshtein, candidates
-- found by trigram distance: pg_trgm, installed by 0000).
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
--> statement-breakpoint
-- English stemming as before, with accents folded first: `gotz` finds Götz, `erendira` Eréndira.
CREATE TEXT SEARCH CONFIGURATION catalogue_english (COPY = english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION catalogue_english ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint
-- Names: not stemmed, accents folded.
CREATE TEXT SEARCH CONFIGURATION catalogue_simple (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION catalogue_simple ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple;
--> statement-breakpoint
-- Text as search compares it: lower case, accents removed. IMMUTABLE so that it can be indexed; the
-- unaccent rules of an installation do not change under its data.
CREATE FUNCTION catalogue_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT lower(unaccent('unaccent'::regdictionary, t))
$$;
--> statement-breakpoint
-- The words of a title or a name that misspelt words may be corrected to: folded, each once; words with
-- digits or hyphens (years, numbers, "gold-bug" whose parts are words of their own) are never corrected.
CREATE FUNCTION catalogue_words(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(array_agg(lexeme ORDER BY lexeme), '{}')
  FROM unnest(to_tsvector('catalogue_simple'::regconfig, t))
  WHERE lexeme !~ '[0-9-]'
$$;
--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"in_titles" integer DEFAULT 0 NOT NULL,
	"in_names" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_words_counted" CHECK ("search_words"."in_titles" >= 0 and "search_words"."in_names" >= 0)
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gist ("word" gist_trgm_ops);
--> statement-breakpoint
CREATE INDEX "search_words_prefix_idx" ON "search_words" USING btree ("word" text_pattern_ops);
--> statement-breakpoint
-- Adds (or, negative, takes away) uses of words: titles (`titles` true) or names; a word nothing uses
-- goes. Under the change feed's lock, which every catalogue write takes (0010): a retitling takes words
-- away and adds others, and two of them taking those row locks in turn would deadlock. Taking away
-- updates the rows: an INSERT's proposed row would be checked, and refused, for its negative count before
-- ON CONFLICT turned it into an update.
CREATE FUNCTION count_search_words(counted text[], delta integer, titles boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(counted) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(7305413);
  IF delta > 0 THEN
    INSERT INTO search_words AS s (word, in_titles, in_names)
    SELECT word, CASE WHEN titles THEN n * delta ELSE 0 END, CASE WHEN titles THEN 0 ELSE n * delta END
    FROM (SELECT word, count(*)::integer AS n FROM unnest(counted) AS word GROUP BY word) AS uses
    ORDER BY word
    ON CONFLICT (word) DO UPDATE
    SET in_titles = s.in_titles + excluded.in_titles, in_names = s.in_names + excluded.in_names;
  ELSE
    UPDATE search_words AS s
    SET in_titles = s.in_titles + CASE WHEN titles THEN uses.n * delta ELSE 0 END,
        in_names = s.in_names + CASE WHEN titles THEN 0 ELSE uses.n * delta END
    FROM (SELECT word, count(*)::integer AS n FROM unnest(counted) AS word GROUP BY word) AS uses
    WHERE s.word = uses.word;
    DELETE FROM search_words WHERE word = ANY (counted) AND in_titles = 0 AND in_names = 0;
  END IF;
END
$$;
--> statement-breakpoint
-- Inserted and deleted books and authors: per statement, so a batch of thousands counts its words in one go.
CREATE FUNCTION count_inserted_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'titles' THEN
    PERFORM count_search_words(ARRAY(SELECT unnest(catalogue_words(title)) FROM new_rows), 1, true);
  ELSE
    PERFORM count_search_words(ARRAY(SELECT unnest(catalogue_words(name)) FROM new_rows), 1, false);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION count_deleted_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'titles' THEN
    PERFORM count_search_words(ARRAY(SELECT unnest(catalogue_words(title)) FROM old_rows), -1, true);
  ELSE
    PERFORM count_search_words(ARRAY(SELECT unnest(catalogue_words(name)) FROM old_rows), -1, false);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A retitled book or renamed author: per row, and only when the text changed (the WHEN below), so that
-- the circulation's updates of a book's counters never pay for it.
CREATE FUNCTION count_changed_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'titles' THEN
    PERFORM count_search_words(catalogue_words(OLD.title), -1, true);
    PERFORM count_search_words(catalogue_words(NEW.title), 1, true);
  ELSE
    PERFORM count_search_words(catalogue_words(OLD.name), -1, false);
    PERFORM count_search_words(catalogue_words(NEW.name), 1, false);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Named to fire after the change feed's triggers (books_record_*, authors_record_*) where both are
-- statement triggers, so the feed's lock is taken in the same order as before.
CREATE TRIGGER books_words_inserted AFTER INSERT ON books REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_words('titles');
--> statement-breakpoint
CREATE TRIGGER books_words_deleted AFTER DELETE ON books REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_words('titles');
--> statement-breakpoint
CREATE TRIGGER books_words_updated AFTER UPDATE OF title ON books
FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION count_changed_words('titles');
--> statement-breakpoint
CREATE TRIGGER authors_words_inserted AFTER INSERT ON authors REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_words('names');
--> statement-breakpoint
CREATE TRIGGER authors_words_deleted AFTER DELETE ON authors REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_words('names');
--> statement-breakpoint
CREATE TRIGGER authors_words_updated AFTER UPDATE OF name ON authors
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION count_changed_words('names');
--> statement-breakpoint
INSERT INTO search_words (word, in_titles)
SELECT word, count(*) FROM books, unnest(catalogue_words(title)) AS word GROUP BY word;
--> statement-breakpoint
INSERT INTO search_words AS s (word, in_names)
SELECT word, count(*) FROM authors, unnest(catalogue_words(name)) AS word GROUP BY word
ON CONFLICT (word) DO UPDATE SET in_names = excluded.in_names;
--> statement-breakpoint
-- What a book is found by: its title and its author's name, accents folded, both weighted alike (an
-- author's name counts like a word of the title when results are ranked).
CREATE OR REPLACE FUNCTION books_search_of(book_title text, author_name text) RETURNS tsvector
LANGUAGE sql IMMUTABLE AS $$
  SELECT setweight(to_tsvector('catalogue_english'::regconfig, book_title), 'A')
      || setweight(to_tsvector('catalogue_english'::regconfig, author_name), 'A')
$$;
--> statement-breakpoint
UPDATE books SET search = books_search_of(title, author_name);
--> statement-breakpoint
DROP INDEX "authors_search_idx";
--> statement-breakpoint
ALTER TABLE "authors" DROP COLUMN "search";
--> statement-breakpoint
ALTER TABLE "authors" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('catalogue_simple'::regconfig, name)) STORED NOT NULL;
--> statement-breakpoint
CREATE INDEX "authors_search_idx" ON "authors" USING gin ("search");
