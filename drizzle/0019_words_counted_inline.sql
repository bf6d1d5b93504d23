-- The words of a title or a name, as rows: a SQL function the planner inlines into the statement that
-- calls it, where a function returning an array is a call of its own for every row. The one definition
-- of the words the dictionary keeps (see catalogue_words in 0013): folded, each once, none with digits
-- or hyphens.
CREATE FUNCTION catalogue_word_set(t text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lexeme FROM unnest(to_tsvector('catalogue_simple'::regconfig, t)) WHERE lexeme !~ '[0-9-]'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalogue_words(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(array_agg(word ORDER BY word), '{}') FROM catalogue_word_set(t) AS word
$$;
--> statement-breakpoint
-- Inserted books and authors count their words in one statement: no array built and taken apart again,
-- no second function. Every insert pays this inside the change feed's lock (0010), which this takes too,
-- in case a write ever reaches it first; a word's row is locked in word order, as before.
CREATE OR REPLACE FUNCTION count_inserted_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7305413);
  IF TG_ARGV[0] = 'titles' THEN
    INSERT INTO search_words AS s (word, in_titles)
    SELECT word, count(*) FROM new_rows, catalogue_word_set(title) AS word GROUP BY word ORDER BY word
    ON CONFLICT (word) DO UPDATE SET in_titles = s.in_titles + excluded.in_titles;
  ELSE
    INSERT INTO search_words AS s (word, in_names)
    SELECT word, count(*) FROM new_rows, catalogue_word_set(name) AS word GROUP BY word ORDER BY word
    ON CONFLICT (word) DO UPDATE SET in_names = s.in_names + excluded.in_names;
  END IF;
  RETURN NULL;
END
$$;
