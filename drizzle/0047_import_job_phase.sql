-- Where a bulk import's run stands (src/db/queries/import-jobs.ts; docs/records.md, "Bulk import"), shown by
-- `GET /imports/{id}`: `phase` is what the job's own run is doing (`starting`, `writing_records`,
-- `building_indexes`), `finished` once the job is done; a failed or stopped job keeps the phase it stopped in.
-- `indexes_built` of `indexes_total` counts the secondary indexes the job set aside that are built again,
-- moved in the transaction that builds each, so that the count is the list's (`set_aside_indexes`) own.
-- Jobs from before this migration read as finished when done, as writing their records otherwise.
ALTER TABLE "import_jobs" ADD COLUMN "phase" text DEFAULT 'starting' NOT NULL;
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "indexes_built" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "indexes_total" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "import_jobs" SET
	"phase" = CASE WHEN "state" = 'done' THEN 'finished' ELSE 'writing_records' END,
	"indexes_total" = coalesce(jsonb_array_length("set_aside_indexes"), 0);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_phase_known"
	CHECK ("import_jobs"."phase" in ('starting', 'writing_records', 'building_indexes', 'finished'));
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_finished_phase_when_done"
	CHECK (("import_jobs"."state" = 'done') = ("import_jobs"."phase" = 'finished'));
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_indexes_built"
	CHECK ("import_jobs"."indexes_built" between 0 and "import_jobs"."indexes_total");
