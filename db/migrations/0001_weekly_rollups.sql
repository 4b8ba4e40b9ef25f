CREATE TABLE "weekly_rollups" (
	"project_id" uuid NOT NULL,
	"week_start" date NOT NULL,
	"agent" text NOT NULL,
	"variant" text NOT NULL,
	"model" text NOT NULL,
	"runs" integer NOT NULL,
	"verified_runs" integer NOT NULL,
	"verified_units" numeric NOT NULL,
	"cost_usd" numeric NOT NULL,
	"wasted_usd" numeric NOT NULL,
	"unpriced_runs" integer NOT NULL,
	"step_count" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weekly_rollups_project_id_week_start_agent_variant_model_pk" PRIMARY KEY("project_id","week_start","agent","variant","model")
);
--> statement-breakpoint
-- Hand-written: the runs stored before this migration, summed as db/write/weekly-rollups.ts sums them.
INSERT INTO "weekly_rollups" ("project_id", "week_start", "agent", "variant", "model", "runs", "verified_runs", "verified_units", "cost_usd", "wasted_usd", "unpriced_runs", "step_count", "updated_at")
SELECT "project_id",
	date_trunc('week', "started_at" AT TIME ZONE 'UTC')::date,
	coalesce("agent", ''), coalesce("variant", ''), coalesce("model", ''),
	count(*)::int,
	(count(*) FILTER (WHERE "verification" = 'verified'))::int,
	coalesce(sum("verified_units"::numeric), 0),
	coalesce(sum("cost_usd"::numeric), 0),
	coalesce(sum("wasted_usd"::numeric), 0),
	(count(*) FILTER (WHERE cardinality("unpriced_models") > 0))::int,
	coalesce(sum("step_count"), 0)::bigint,
	now()
FROM "runs"
GROUP BY 1, 2, 3, 4, 5;
