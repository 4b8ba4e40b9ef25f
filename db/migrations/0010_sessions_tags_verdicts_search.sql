CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "run_verdicts" (
	"project_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"verdict" text NOT NULL,
	"units" double precision NOT NULL,
	"note" text,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_verdicts_project_id_run_id_pk" PRIMARY KEY("project_id","run_id")
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "session_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "verification_source" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_search_idx" ON "runs" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_session_idx" ON "runs" USING btree ("project_id","session_id","started_at") WHERE "runs"."session_id" is not null;