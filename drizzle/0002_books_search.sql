-- Keeps books.search = title (weight A) || author name (weight B), so one GIN index serves
-- full-text queries that mix words of a title and of its author's name ("tolkien hobbit").
CREATE FUNCTION books_search_vector(book_title text, book_author_id integer) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, book_title), 'A')
      || setweight(to_tsvector('english'::regconfig, coalesce((SELECT name FROM authors WHERE id = book_author_id), '')), 'B')
$$;
--> statement-breakpoint
CREATE FUNCTION books_search_refresh() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := books_search_vector(NEW.title, NEW.author_id);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_search_refresh
BEFORE INSERT OR UPDATE OF title, author_id ON books
FOR EACH ROW EXECUTE FUNCTION books_search_refresh();
--> statement-breakpoint
-- A renamed author changes what their books are found by.
CREATE FUNCTION authors_name_refresh_books() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE books SET search = books_search_vector(title, author_id) WHERE author_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER authors_name_refresh_books
AFTER UPDATE OF name ON authors
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
EXECUTE FUNCTION authors_name_refresh_books();
