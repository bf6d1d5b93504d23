-- A bulk import's transaction says so with `set_config('catalogue.bulk_load', 'on', true)` (local to that
-- transaction, so a concurrent writer never sees it) and writes each book's author name and search vector
-- itself, for the whole batch in its INSERT … SELECT, after locking the batch's authors FOR SHARE at once:
-- the same values this row trigger would write, without a PL/pgSQL call and a row lock per book. Updates
-- are refreshed here in every transaction.

CREATE OR REPLACE FUNCTION public.books_search_refresh()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
DECLARE
  found text;
BEGIN
  IF TG_OP = 'INSERT' AND current_setting('catalogue.bulk_load', true) = 'on' THEN
    RETURN NEW;
  END IF;
  SELECT name INTO found FROM authors WHERE id = NEW.author_id FOR SHARE;
  NEW.author_name := coalesce(found, '');
  NEW.search := books_search_of(NEW.title, NEW.author_name);
  RETURN NEW;
END
$$;
