-- Rate limits shared by every process on the database (docs/operations.md, "Rate limits"): one row per
-- caller and kind, counted by one upsert per request. UNLOGGED, written by hand (drizzle-kit has no word for
-- it): the counts of the current minute are not worth a WAL record per search, and after a crash PostgreSQL
-- empties the table, which gives every caller a fresh window and nothing worse. Unlogged tables are not
-- replicated either; only the primary counts.
CREATE UNLOGGED TABLE "rate_windows" (
	"caller" text NOT NULL,
	"kind" text NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "rate_windows_caller_kind_pk" PRIMARY KEY("caller","kind")
);
