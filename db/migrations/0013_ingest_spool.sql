CREATE TABLE IF NOT EXISTS "ingest_spool" (
	"id" bigserial NOT NULL,
	"project_id" uuid NOT NULL,
	"format" text NOT NULL,
	"body" bytea NOT NULL,
	"bytes" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "ingest_spool_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ingest_spool_attempts_idx" ON "ingest_spool" USING btree ("attempts","id");