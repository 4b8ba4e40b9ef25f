-- Tombstones of runs deleted on a user's request (db/schema/deleted-runs.ts): a later span of such a
-- run is dropped, not stored. Re-runnable, as every migration here.
CREATE TABLE IF NOT EXISTS "deleted_runs" (
	"project_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"spans_dropped" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "deleted_runs_project_id_run_id_pk" PRIMARY KEY("project_id","run_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "deleted_traces" (
	"project_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"run_id" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deleted_traces_project_id_trace_id_pk" PRIMARY KEY("project_id","trace_id")
);
