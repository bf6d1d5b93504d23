-- Two per-row costs of inserting books, made cheaper with the same results (docs/performance/bulk-import.md,
-- 2026-11-30, "the backends' CPU per book"):
-- * catalogue_exact_key, which the stored `exact_key` columns of books and authors call for every row, ran
--   as a query of its own each time (a window over the vector's positions, an ordered aggregate): about
--   three quarters of its cost was starting and ending that query. It is now one expression, which the
--   planner inlines into the generated columns and into search: `phraseto_tsquery` parses the text as
--   `to_tsvector` does and writes the lexemes in the order of their positions, with the gap that stop words
--   leave as the distance (`<->`, `<2>`, …); the key is that text with each gap written as `_`s. A leading
--   word (`x`) stands before the text so that a text of stop words alone still has a lexeme (no notice) and
--   so that the gap before the first lexeme, which the key leaves out, is the one taken off. Whatever that
--   text cannot say plainly (a gap of four stop words or more, a lexeme with a quote, a backslash or a space,
--   two lexemes at one position, no lexeme at all) goes to the definition as it was, kept here as
--   catalogue_exact_key_by_positions: the same key either way (test/exact-key.test.ts).
-- * books_stock_first_copy names the default item type once per statement: left to the column's default,
--   `default_item_type()` ran its query once per copy.
-- * books_search_refresh is not called at all for the rows of an insert made with `catalogue.bulk_load` on
--   (the bulk import's transaction, which writes the search columns itself): the trigger's WHEN says so,
--   where the function's first line said it after a PL/pgSQL call per row. Updates have a trigger of their
--   own, without the condition, as before.

CREATE FUNCTION catalogue_exact_key_by_positions(config regconfig, body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT string_agg(repeat('_ ', coalesce(p - prev - 1, 0)) || lexeme, ' ' ORDER BY p, lexeme)
  FROM (
    SELECT w.lexeme, p, lag(p) OVER (ORDER BY p, w.lexeme) AS prev
    FROM unnest(to_tsvector(config, catalogue_unmark(body))) AS w, unnest(w.positions) AS p
  ) AS words
$$;
--> statement-breakpoint
-- Not STRICT, so that the planner inlines it (coalesce is not strict); a null text or configuration still
-- gives null, through the fallback, which is.
CREATE OR REPLACE FUNCTION catalogue_exact_key(config regconfig, body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT AS $$
  SELECT coalesce(
    replace(
      substring(
        replace(replace(replace(replace(
          regexp_replace(phraseto_tsquery(config, 'x ' || catalogue_unmark(body))::text, '^''x''(?: <[-0-9]+> |$)', ''),
          ' <-> ', ' '), ' <2> ', ' _ '), ' <3> ', ' _ _ '), ' <4> ', ' _ _ _ ')
        from '^(?:(?:''[^''\\ ]+''|_)(?: |$))+$'),
      '''', ''),
    catalogue_exact_key_by_positions(config, body))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.books_stock_first_copy()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
DECLARE
  home integer := default_branch();
  kind integer := default_item_type();
BEGIN
  INSERT INTO copies (book_id, branch_id, location_branch_id, item_type_id)
  SELECT id, home, home, kind FROM new_rows ORDER BY id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.books_search_refresh()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
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
DROP TRIGGER books_search_refresh ON books;
--> statement-breakpoint
CREATE TRIGGER books_search_refresh BEFORE INSERT ON books
FOR EACH ROW WHEN (current_setting('catalogue.bulk_load', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION books_search_refresh();
--> statement-breakpoint
CREATE TRIGGER books_search_refresh_updated BEFORE UPDATE OF title, author_id ON books
FOR EACH ROW EXECUTE FUNCTION books_search_refresh();
