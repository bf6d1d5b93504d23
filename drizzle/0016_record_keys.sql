-- Importing records (docs/records.md, "Import"). A book keeps where its record came from: the MARC source
-- (003, or the one the importer named) and the control number there (001); a re-import finds it by them,
-- and the unique index keeps one book per record whatever imports at the same time.
ALTER TABLE "books" ADD COLUMN "record_source" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "record_control_number" text;--> statement-breakpoint
CREATE UNIQUE INDEX "books_record_key" ON "books" USING btree ("record_source","record_control_number") WHERE "books"."record_control_number" is not null;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_record_key_paired" CHECK (("books"."record_source" is null) = ("books"."record_control_number" is null));--> statement-breakpoint
-- A name as an import compares it with the authors': folded (lower case, accents removed) and without
-- spaces and punctuation, so `J.R.R. Tolkien`, `J. R. R. Tolkien` and `j r r tolkien` are one name.
-- IMMUTABLE, like catalogue_fold, so that it can be indexed; its search_path is its own because
-- PostgreSQL 17 and later build and maintain an index with a search_path of pg_catalog alone, where
-- catalogue_fold and unaccent are not found.
CREATE FUNCTION catalogue_name_key(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT SET search_path = public, pg_catalog AS $$
  SELECT regexp_replace(catalogue_fold(t), '[[:space:][:punct:]]+', '', 'g')
$$;
--> statement-breakpoint
CREATE INDEX "authors_name_key_idx" ON "authors" USING btree (catalogue_name_key("name"));
