-- What a search's text must read the same as to name a title (an author's name) exactly: its words in
-- order as the text search configuration reads them (folded; stemmed in catalogue_english), with one `_`
-- for each word the configuration drops between two (a stopword). `Man of the Year` and `man of the year`
-- both read `man _ _ year`, `man year` does not; words dropped before the first word or after the last
-- count for nothing, so `the hobbit` and `hobbit` both name The Hobbit. NULL for a text of no such words.
-- Stored in a column (generated) and indexed: a search lists the items it names exactly first, whatever
-- its number of matches, and ranking compares a column rather than reading every title again.
CREATE FUNCTION catalogue_exact_key(config regconfig, body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT string_agg(repeat('_ ', coalesce(p - prev - 1, 0)) || lexeme, ' ' ORDER BY p, lexeme)
  FROM (
    SELECT w.lexeme, p, lag(p) OVER (ORDER BY p, w.lexeme) AS prev
    FROM unnest(to_tsvector(config, body)) AS w, unnest(w.positions) AS p
  ) AS words
$$;
--> statement-breakpoint
-- A title (a name) as words, folded, each run of other characters one space: suggestions rank by whether
-- it begins with what was typed, read so, and read it for every candidate of a prefix. Each table is
-- rewritten once, for both of its columns.
ALTER TABLE "authors" ADD COLUMN "exact_key" text GENERATED ALWAYS AS (catalogue_exact_key('catalogue_simple'::regconfig, name)) STORED,
  ADD COLUMN "name_words" text GENERATED ALWAYS AS (trim(regexp_replace(catalogue_fold(name), '[^[:alnum:]]+', ' ', 'g'))) STORED;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "exact_key" text GENERATED ALWAYS AS (catalogue_exact_key('catalogue_english'::regconfig, title)) STORED,
  ADD COLUMN "title_words" text GENERATED ALWAYS AS (trim(regexp_replace(catalogue_fold(title), '[^[:alnum:]]+', ' ', 'g'))) STORED;--> statement-breakpoint
CREATE INDEX "authors_exact_key_idx" ON "authors" USING btree ("exact_key");--> statement-breakpoint
CREATE INDEX "books_exact_key_idx" ON "books" USING btree ("exact_key");