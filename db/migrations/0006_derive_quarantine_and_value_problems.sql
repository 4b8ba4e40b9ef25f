CREATE TABLE IF NOT EXISTS "derive_failures" (
	"project_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"error" text NOT NULL,
	"attempts" integer NOT NULL,
	"first_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retry_at" timestamp with time zone NOT NULL,
	CONSTRAINT "derive_failures_project_id_run_id_pk" PRIMARY KEY("project_id","run_id")
);
--> statement-breakpoint
ALTER TABLE "dirty_runs" ADD COLUMN IF NOT EXISTS "not_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "value_problem_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "value_problems" jsonb DEFAULT '[]'::jsonb NOT NULL;