-- Declaring a loan lost stamps `lost_at` and nothing else: with no index naming `lost_at` (not even in a
-- partial index's predicate) and room left on the loan's page, the stamp is a HOT update, which writes no
-- index entry. The lost-items job still walks the active loans whose terms name a limit, by id; it skips those
-- already lost by reading them (docs/performance/lost-loans.md).
DROP INDEX "loans_may_be_lost_idx";--> statement-breakpoint
CREATE INDEX "loans_may_be_lost_idx" ON "loans" USING btree ("id") WHERE "loans"."returned_at" is null and "loans"."lost_after_days" is not null;--> statement-breakpoint
ALTER TABLE "loans" SET (fillfactor = 50);
