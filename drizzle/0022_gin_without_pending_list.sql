-- The GIN indexes take every write into their tree at once, not into a pending list (`fastupdate`) that
-- every search through the index reads in full until the list reaches 4 MB and a write merges it. What is
-- pending now is merged here, since turning the list off does not merge it. Neither rebuilds an index.
-- src/db/schema/gin-index.ts says why; docs/architecture.md has the figures.
ALTER INDEX "authors_search_idx" SET (fastupdate=false);--> statement-breakpoint
ALTER INDEX "books_search_idx" SET (fastupdate=false);--> statement-breakpoint
ALTER INDEX "books_subjects_idx" SET (fastupdate=false);--> statement-breakpoint
SELECT gin_clean_pending_list('authors_search_idx'), gin_clean_pending_list('books_search_idx'), gin_clean_pending_list('books_subjects_idx');
