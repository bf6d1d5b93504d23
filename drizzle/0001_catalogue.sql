CREATE TABLE "authors" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "authors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, name)) STORED NOT NULL,
	CONSTRAINT "authors_name_not_blank" CHECK (btrim("authors"."name") <> ''),
	CONSTRAINT "authors_name_length" CHECK (char_length("authors"."name") <= 200)
);
--> statement-breakpoint
CREATE TABLE "books" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "books_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"publication_year" integer NOT NULL,
	"author_id" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"search" "tsvector" DEFAULT ''::tsvector NOT NULL,
	CONSTRAINT "books_title_not_blank" CHECK (btrim("books"."title") <> ''),
	CONSTRAINT "books_title_length" CHECK (char_length("books"."title") <= 500),
	CONSTRAINT "books_publication_year_range" CHECK ("books"."publication_year" between -3000 and 2100)
);
--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authors_name_id_idx" ON "authors" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "authors_name_trgm_idx" ON "authors" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "authors_search_idx" ON "authors" USING gin ("search");--> statement-breakpoint
CREATE INDEX "books_title_id_idx" ON "books" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "books_publication_year_id_idx" ON "books" USING btree ("publication_year","id");--> statement-breakpoint
CREATE INDEX "books_author_id_id_idx" ON "books" USING btree ("author_id","id");--> statement-breakpoint
CREATE INDEX "books_search_idx" ON "books" USING gin ("search");