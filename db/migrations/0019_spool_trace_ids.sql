-- The traces each spooled request's spans belong to and the runs they name, so a read of one run
-- stores that run's requests first (ingest/spool-worker.ts). Rows spooled before this have none:
-- any run's.
ALTER TABLE "ingest_spool" ADD COLUMN IF NOT EXISTS "trace_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest_spool" ADD COLUMN IF NOT EXISTS "run_ids" text[] DEFAULT '{}'::text[] NOT NULL;
