CREATE TYPE "public"."rollup_grain" AS ENUM('hour', 'day');--> statement-breakpoint
CREATE TABLE "run_agent_rollups" (
	"project_id" uuid NOT NULL,
	"grain" "rollup_grain" NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"agent" text NOT NULL,
	"variant" text NOT NULL,
	"runs" integer NOT NULL,
	"cost_usd" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_agent_rollups_project_id_grain_bucket_agent_variant_pk" PRIMARY KEY("project_id","grain","bucket","agent","variant")
);
--> statement-breakpoint
CREATE TABLE "run_category_rollups" (
	"project_id" uuid NOT NULL,
	"grain" "rollup_grain" NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"exit_category" "exit_category" NOT NULL,
	"runs" integer NOT NULL,
	"cost_usd" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_category_rollups_project_id_grain_bucket_exit_category_pk" PRIMARY KEY("project_id","grain","bucket","exit_category")
);
--> statement-breakpoint
CREATE TABLE "run_rollups" (
	"project_id" uuid NOT NULL,
	"grain" "rollup_grain" NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"exit_category" "exit_category" NOT NULL,
	"agent" text NOT NULL,
	"variant" text NOT NULL,
	"runs" integer NOT NULL,
	"cost_usd" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_rollups_project_id_grain_bucket_exit_category_agent_variant_pk" PRIMARY KEY("project_id","grain","bucket","exit_category","agent","variant")
);
--> statement-breakpoint
-- Hand-written: the runs stored before this migration, counted as db/write/run-rollups.ts counts them.
INSERT INTO "run_rollups" ("project_id", "grain", "bucket", "exit_category", "agent", "variant", "runs", "cost_usd", "updated_at")
SELECT "project_id", g."grain", date_trunc(g."grain"::text, "started_at", 'UTC'),
	"exit_category", coalesce("agent", ''), coalesce("variant", ''),
	count(*)::int, coalesce(sum("cost_usd"::numeric), 0), now()
FROM "runs" CROSS JOIN (VALUES ('hour'::"rollup_grain"), ('day'::"rollup_grain")) AS g("grain")
GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO "run_category_rollups" ("project_id", "grain", "bucket", "exit_category", "runs", "cost_usd", "updated_at")
SELECT "project_id", "grain", "bucket", "exit_category", sum("runs")::int, sum("cost_usd"), now()
FROM "run_rollups" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "run_agent_rollups" ("project_id", "grain", "bucket", "agent", "variant", "runs", "cost_usd", "updated_at")
SELECT "project_id", "grain", "bucket", "agent", "variant", sum("runs")::int, sum("cost_usd"), now()
FROM "run_rollups" GROUP BY 1, 2, 3, 4, 5;
