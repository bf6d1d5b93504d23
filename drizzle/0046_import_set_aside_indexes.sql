-- A large bulk import loads `books` and `copies` with their secondary indexes set aside and builds them
-- afterwards (src/db/queries/set-aside-indexes.ts; docs/records.md, "Bulk import"). The definitions of the
-- indexes it dropped are written here in the same transaction as the drop, and each is taken off the list
-- in the transaction that builds it again, so that a run killed at any point leaves the list of what is
-- missing: running the same file again, or starting the server, builds them.
ALTER TABLE "import_jobs" ADD COLUMN "set_aside_indexes" jsonb;
