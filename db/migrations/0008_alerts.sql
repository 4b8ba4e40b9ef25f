CREATE TABLE IF NOT EXISTS "alert_deliveries" (
	"project_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"error" text,
	CONSTRAINT "alert_deliveries_project_id_event_id_attempt_pk" PRIMARY KEY("project_id","event_id","attempt")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "alert_events" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"rule_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"run_id" text,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"summary" text NOT NULL,
	"detail" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	CONSTRAINT "alert_events_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "alert_rules" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"kind" text NOT NULL,
	"when" jsonb NOT NULL,
	"agent" text,
	"webhook_url" text NOT NULL,
	"webhook_format" text NOT NULL,
	"secret_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "alert_events_once_idx" ON "alert_events" USING btree ("project_id","rule_id","dedupe_key");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alert_events_due_idx" ON "alert_events" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alert_events_fired_idx" ON "alert_events" USING btree ("project_id","fired_at");