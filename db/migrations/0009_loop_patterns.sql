CREATE TABLE "pattern_rollups" (
	"project_id" uuid NOT NULL,
	"grain" "rollup_grain" NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	"kind" text NOT NULL,
	"agent" text NOT NULL,
	"runs" integer NOT NULL,
	"wasted_usd" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pattern_rollups_project_id_grain_bucket_signature_kind_agent_pk" PRIMARY KEY("project_id","grain","bucket","signature","kind","agent")
);
--> statement-breakpoint
CREATE TABLE "run_patterns" (
	"project_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"signature" text NOT NULL,
	"kind" text NOT NULL,
	"agent" text NOT NULL,
	"label" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"wasted_usd" double precision NOT NULL,
	CONSTRAINT "run_patterns_project_id_run_id_signature_pk" PRIMARY KEY("project_id","run_id","signature")
);
--> statement-breakpoint
CREATE INDEX "run_patterns_signature_idx" ON "run_patterns" USING btree ("project_id","signature","started_at");--> statement-breakpoint
CREATE INDEX "run_patterns_started_idx" ON "run_patterns" USING btree ("project_id","started_at");--> statement-breakpoint
-- Runs derived before patterns were kept get theirs at their next derivation: mark the ones with a loop signal.
INSERT INTO "dirty_runs" ("project_id", "run_id") SELECT "project_id", "id" FROM "runs" WHERE "repeat_step" IS NOT NULL OR "revisit_step" IS NOT NULL OR "stall_step" IS NOT NULL OR "tool_circuit_step" IS NOT NULL ON CONFLICT DO NOTHING;
