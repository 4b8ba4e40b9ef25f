DROP INDEX IF EXISTS "runs_category_started_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "runs_agent_started_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "runs_started_idx";--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "fragment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_fragment_idx" ON "runs" USING btree ("project_id","started_at") WHERE "runs"."fragment";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_started_idx" ON "runs" USING btree ("project_id","started_at","id");