-- Bulk imports of a whole collection (src/imports/bulk-import.ts; docs/records.md, "Bulk import"): one row per
-- run of a file, keyed by the file's SHA-256 and the importer's source. `processed` is the high-water mark:
-- records 1 to `processed` are written, moved forward in the same transaction as each batch, so that a run
-- killed at any point is finished by running the same file again, from there, without doubling anything.
-- At most one unfinished run per file and source (`import_jobs_running_key`). `import_job_entries` keeps the
-- report's listed records (at most 1,000 of each outcome) so that a resumed run reports the whole file.
CREATE TABLE "import_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"file_sha256" text NOT NULL,
	"source" text,
	"media_type" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total" integer,
	"processed" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"authors_created" integer DEFAULT 0 NOT NULL,
	"runs" integer DEFAULT 1 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "import_jobs_state_known" CHECK ("import_jobs"."state" in ('running', 'done', 'failed')),
	CONSTRAINT "import_jobs_sha256" CHECK ("import_jobs"."file_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "import_jobs_counts" CHECK ("import_jobs"."processed" >= 0 and "import_jobs"."processed" = "import_jobs"."imported" + "import_jobs"."matched" + "import_jobs"."refused"),
	CONSTRAINT "import_jobs_finished_when_done" CHECK (("import_jobs"."state" = 'running') = ("import_jobs"."finished_at" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "import_jobs_running_key" ON "import_jobs" USING btree ("file_sha256",coalesce("source", '')) WHERE "import_jobs"."state" = 'running';
--> statement-breakpoint
CREATE TABLE "import_job_entries" (
	"job_id" integer NOT NULL,
	"number" integer NOT NULL,
	"status" text NOT NULL,
	"book_id" integer,
	"matched_by" text,
	"reason" text,
	CONSTRAINT "import_job_entries_pkey" PRIMARY KEY("job_id","number"),
	CONSTRAINT "import_job_entries_status_known" CHECK ("import_job_entries"."status" in ('imported', 'matched', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "import_job_entries" ADD CONSTRAINT "import_job_entries_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE cascade ON UPDATE no action;
