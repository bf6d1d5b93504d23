-- Marks that romanisation writes as letters, left out of what search compares, in the index and in the query
-- alike, as NACO normalisation leaves them out: alif and ayn (ʼ ʻ, ʾ ʿ: Qurʼān, ʻAlī, Hawaiʻi), the soft
-- and hard signs (ʹ ʺ: Lʹvov), the saltillo (ꞌ), stress and length marks. `Qurʼān`, `Qurʾān` and `quran`
-- are one word. Before, unaccent folded some of them to an apostrophe inside the word (`qur'an`), which no
-- typed search could reach, and kept the others. Only letters are listed (the text search parser reads
-- them inside a word): leaving out a character that separates words would join two.
-- src/db/queries/search.ts leaves the same ones out of a search's text before it reaches PostgreSQL.
-- ASCII text, as most titles are, is returned as it is: translate compares every character with the list,
-- about 3 µs a title. Not STRICT, so that the planner inlines it into its callers (a CASE is not strict).
CREATE FUNCTION catalogue_unmark(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN octet_length(t) = char_length(t) THEN t ELSE translate(t, 'ʹʺʻʼʽʾʿˀˁˆˇˈˉˊˋˌˍˎˏːˑˬˮꞋꞌ', '') END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalogue_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT lower(unaccent('unaccent'::regdictionary, catalogue_unmark(t)))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalogue_word_set(t text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lexeme FROM unnest(to_tsvector('catalogue_simple'::regconfig, catalogue_unmark(t))) WHERE lexeme !~ '[0-9-]'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalogue_exact_key(config regconfig, body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT string_agg(repeat('_ ', coalesce(p - prev - 1, 0)) || lexeme, ' ' ORDER BY p, lexeme)
  FROM (
    SELECT w.lexeme, p, lag(p) OVER (ORDER BY p, w.lexeme) AS prev
    FROM unnest(to_tsvector(config, catalogue_unmark(body))) AS w, unnest(w.positions) AS p
  ) AS words
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION books_search_of(book_title text, author_name text) RETURNS tsvector
LANGUAGE sql IMMUTABLE AS $$
  SELECT setweight(to_tsvector('catalogue_english'::regconfig, catalogue_unmark(book_title)), 'A')
      || setweight(to_tsvector('catalogue_english'::regconfig, catalogue_unmark(author_name)), 'A')
$$;
--> statement-breakpoint
-- Every stored reading of a title or a name again, one rewrite per table and no row trigger: a book's search
-- vector by its type's USING, the generated columns added anew (PostgreSQL 15 cannot change their expression,
-- nor compute them again unless what they are made of changes). A rewritten table's indexes are built again,
-- among them the key imports look authors up by (catalogue_name_key, 0016), which folds as catalogue_fold
-- now does.
ALTER TABLE "books" DROP COLUMN "exact_key", DROP COLUMN "title_words",
  ALTER COLUMN "search" TYPE tsvector USING books_search_of(title, author_name),
  ADD COLUMN "exact_key" text GENERATED ALWAYS AS (catalogue_exact_key('catalogue_english'::regconfig, title)) STORED,
  ADD COLUMN "title_words" text GENERATED ALWAYS AS (trim(regexp_replace(catalogue_fold(title), '[^[:alnum:]]+', ' ', 'g'))) STORED;
--> statement-breakpoint
CREATE INDEX "books_exact_key_idx" ON "books" USING btree ("exact_key");
--> statement-breakpoint
ALTER TABLE "authors" DROP COLUMN "search", DROP COLUMN "exact_key", DROP COLUMN "name_words",
  ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('catalogue_simple'::regconfig, catalogue_unmark(name))) STORED NOT NULL,
  ADD COLUMN "exact_key" text GENERATED ALWAYS AS (catalogue_exact_key('catalogue_simple'::regconfig, name)) STORED,
  ADD COLUMN "name_words" text GENERATED ALWAYS AS (trim(regexp_replace(catalogue_fold(name), '[^[:alnum:]]+', ' ', 'g'))) STORED;
--> statement-breakpoint
CREATE INDEX "authors_search_idx" ON "authors" USING gin ("search");
--> statement-breakpoint
CREATE INDEX "authors_exact_key_idx" ON "authors" USING btree ("exact_key");
--> statement-breakpoint
-- The dictionary holds the words as they are now read.
TRUNCATE "search_words";
--> statement-breakpoint
INSERT INTO search_words (word, in_titles)
SELECT word, count(*) FROM books, catalogue_word_set(title) AS word GROUP BY word;
--> statement-breakpoint
INSERT INTO search_words AS s (word, in_names)
SELECT word, count(*) FROM authors, catalogue_word_set(name) AS word GROUP BY word
ON CONFLICT (word) DO UPDATE SET in_names = excluded.in_names;
