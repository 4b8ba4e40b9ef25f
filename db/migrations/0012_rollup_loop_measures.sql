ALTER TABLE "run_agent_rollups" ADD COLUMN IF NOT EXISTS "wasted_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_agent_rollups" ADD COLUMN IF NOT EXISTS "loop_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_agent_rollups" ADD COLUMN IF NOT EXISTS "verified_units" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_category_rollups" ADD COLUMN IF NOT EXISTS "wasted_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_category_rollups" ADD COLUMN IF NOT EXISTS "loop_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_category_rollups" ADD COLUMN IF NOT EXISTS "verified_units" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_rollups" ADD COLUMN IF NOT EXISTS "wasted_usd" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_rollups" ADD COLUMN IF NOT EXISTS "loop_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_rollups" ADD COLUMN IF NOT EXISTS "verified_units" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "weekly_rollups" ADD COLUMN IF NOT EXISTS "loop_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: the new measures of the rows already kept, counted as db/write/run-rollups.ts and
-- weekly-rollups.ts count them (setting, not adding, so running it again changes nothing).
UPDATE "run_rollups" r SET "wasted_usd" = c."wasted_usd", "loop_runs" = c."loop_runs", "verified_units" = c."verified_units"
FROM (
	SELECT "project_id", g."grain", date_trunc(g."grain"::text, "started_at", 'UTC') AS "bucket",
		"exit_category", coalesce("agent", '') AS "agent", coalesce("variant", '') AS "variant",
		coalesce(sum("wasted_usd"::numeric), 0) AS "wasted_usd",
		(count(*) FILTER (WHERE "first_signal_step" IS NOT NULL))::int AS "loop_runs",
		coalesce(sum("verified_units"::numeric), 0) AS "verified_units"
	FROM "runs" CROSS JOIN (VALUES ('hour'::"rollup_grain"), ('day'::"rollup_grain")) AS g("grain")
	GROUP BY 1, 2, 3, 4, 5, 6
) c
WHERE r."project_id" = c."project_id" AND r."grain" = c."grain" AND r."bucket" = c."bucket"
	AND r."exit_category" = c."exit_category" AND r."agent" = c."agent" AND r."variant" = c."variant";--> statement-breakpoint
UPDATE "run_category_rollups" r SET "wasted_usd" = c."wasted_usd", "loop_runs" = c."loop_runs", "verified_units" = c."verified_units"
FROM (
	SELECT "project_id", "grain", "bucket", "exit_category", sum("wasted_usd") AS "wasted_usd",
		sum("loop_runs")::int AS "loop_runs", sum("verified_units") AS "verified_units"
	FROM "run_rollups" GROUP BY 1, 2, 3, 4
) c
WHERE r."project_id" = c."project_id" AND r."grain" = c."grain" AND r."bucket" = c."bucket"
	AND r."exit_category" = c."exit_category";--> statement-breakpoint
UPDATE "run_agent_rollups" r SET "wasted_usd" = c."wasted_usd", "loop_runs" = c."loop_runs", "verified_units" = c."verified_units"
FROM (
	SELECT "project_id", "grain", "bucket", "agent", "variant", sum("wasted_usd") AS "wasted_usd",
		sum("loop_runs")::int AS "loop_runs", sum("verified_units") AS "verified_units"
	FROM "run_rollups" GROUP BY 1, 2, 3, 4, 5
) c
WHERE r."project_id" = c."project_id" AND r."grain" = c."grain" AND r."bucket" = c."bucket"
	AND r."agent" = c."agent" AND r."variant" = c."variant";--> statement-breakpoint
UPDATE "weekly_rollups" r SET "loop_runs" = c."loop_runs"
FROM (
	SELECT "project_id", date_trunc('week', "started_at" AT TIME ZONE 'UTC')::date AS "week_start",
		coalesce("agent", '') AS "agent", coalesce("variant", '') AS "variant", coalesce("model", '') AS "model",
		(count(*) FILTER (WHERE "first_signal_step" IS NOT NULL))::int AS "loop_runs"
	FROM "runs" GROUP BY 1, 2, 3, 4, 5
) c
WHERE r."project_id" = c."project_id" AND r."week_start" = c."week_start" AND r."agent" = c."agent"
	AND r."variant" = c."variant" AND r."model" = c."model";
