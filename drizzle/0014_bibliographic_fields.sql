-- What a library records of an edition besides the seed's fields, each optional: ISBN-13 (one book per
-- ISBN, by the unique index), an ISO 639-2/B language code, subject headings and the publisher. The
-- values arrive normalised (src/domain/identifiers.ts); the checks keep the stored forms whatever writes.
-- isn: the catalogue generator (src/db/generate.ts) takes its ISBNs' check digits from it.
CREATE EXTENSION IF NOT EXISTS isn;
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "isbn" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "subjects" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "publisher" text;--> statement-breakpoint
CREATE UNIQUE INDEX "books_isbn_key" ON "books" USING btree ("isbn") WHERE "books"."isbn" is not null;--> statement-breakpoint
CREATE INDEX "books_language_id_idx" ON "books" USING btree ("language","id") WHERE "books"."language" is not null;--> statement-breakpoint
CREATE INDEX "books_subjects_idx" ON "books" USING gin ("subjects");--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_isbn_13" CHECK ("books"."isbn" ~ '^97[89][0-9]{10}$');--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_language_code" CHECK ("books"."language" ~ '^[a-z]{3}$');--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_publisher_not_blank" CHECK (btrim("books"."publisher") <> '');--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_publisher_length" CHECK (char_length("books"."publisher") <= 200);--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_subjects_count" CHECK (cardinality("books"."subjects") <= 20);
