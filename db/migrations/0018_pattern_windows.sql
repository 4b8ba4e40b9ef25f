-- Each pattern's sum over the last days to a whole hour, kept by deltas while its anchor is
-- listed (db/schema/loop-patterns.ts); built by the server within the hour, nothing to fill here.
CREATE TABLE IF NOT EXISTS "pattern_window_anchors" (
	"project_id" uuid NOT NULL,
	"days" integer NOT NULL,
	"anchor" timestamp with time zone NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pattern_window_anchors_project_id_days_anchor_pk" PRIMARY KEY("project_id","days","anchor")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "pattern_windows" (
	"project_id" uuid NOT NULL,
	"days" integer NOT NULL,
	"anchor" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	"kind" text NOT NULL,
	"agent" text NOT NULL,
	"runs" integer NOT NULL,
	"wasted_usd" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pattern_windows_project_id_days_anchor_signature_kind_agent_pk" PRIMARY KEY("project_id","days","anchor","signature","kind","agent")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pattern_windows_wasted_idx" ON "pattern_windows" USING btree ("project_id","days","anchor","wasted_usd","runs","signature","agent");