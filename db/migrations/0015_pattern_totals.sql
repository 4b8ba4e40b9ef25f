-- Each pattern's all-time runs and wasted spend (db/schema/loop-patterns.ts), filled from the
-- day rollup, which counts every kept run once, and the indexes the patterns read walks by.
-- Re-runnable: a second run refills the totals and rebuilds the indexes.
CREATE TABLE IF NOT EXISTS "pattern_totals" (
	"project_id" uuid NOT NULL,
	"signature" text NOT NULL,
	"kind" text NOT NULL,
	"agent" text NOT NULL,
	"runs" integer NOT NULL,
	"wasted_usd" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pattern_totals_project_id_signature_kind_agent_pk" PRIMARY KEY("project_id","signature","kind","agent")
);
--> statement-breakpoint
DELETE FROM "pattern_totals";
--> statement-breakpoint
INSERT INTO "pattern_totals" ("project_id", "signature", "kind", "agent", "runs", "wasted_usd")
SELECT "project_id", "signature", "kind", "agent", sum("runs")::int, sum("wasted_usd")
FROM "pattern_rollups"
WHERE "grain" = 'day'
GROUP BY 1, 2, 3, 4
HAVING sum("runs") > 0
ORDER BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pattern_totals_wasted_idx" ON "pattern_totals" USING btree ("project_id","wasted_usd","runs","signature","agent");
--> statement-breakpoint
-- A pattern's runs in the order they are listed (newest first, then by id).
DROP INDEX IF EXISTS "run_patterns_signature_idx";
--> statement-breakpoint
CREATE INDEX "run_patterns_signature_idx" ON "run_patterns" USING btree ("project_id","signature","started_at","run_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pattern_rollups_signature_idx" ON "pattern_rollups" USING btree ("project_id","signature","grain","bucket");
