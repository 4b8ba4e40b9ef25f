CREATE TYPE "public"."exit_category" AS ENUM('goal_satisfied', 'model_stopped', 'budget_exhausted', 'no_progress', 'escalated', 'tool_circuit_open', 'goal_drift', 'cancelled', 'hard_error', 'other', 'unknown', 'running');--> statement-breakpoint
CREATE TYPE "public"."verification" AS ENUM('verified', 'contradicted', 'unverified');--> statement-breakpoint
CREATE TABLE "api_keys" (
	"project_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_project_id_id_pk" PRIMARY KEY("project_id","id"),
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"model" text PRIMARY KEY NOT NULL,
	"input_per_mtok" double precision NOT NULL,
	"output_per_mtok" double precision NOT NULL,
	"cache_read_per_mtok" double precision,
	"checked_at" date NOT NULL,
	"source" text
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"project_id" uuid NOT NULL,
	"id" text NOT NULL,
	"trace_ids" text[] NOT NULL,
	"root_span_id" text,
	"agent" text,
	"variant" text,
	"goal" text,
	"exit_reason" text,
	"exit_reason_source" text,
	"exit_detail" text,
	"exit_category" "exit_category" NOT NULL,
	"exit_kind" text,
	"verification" "verification" NOT NULL,
	"verified_units" double precision NOT NULL,
	"escalation" text,
	"max_steps" double precision,
	"max_usd" double precision,
	"wall_clock_ms" double precision,
	"progress_direction" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"duration_ms" double precision,
	"last_span_end_ms" double precision NOT NULL,
	"step_count" integer NOT NULL,
	"span_count" integer NOT NULL,
	"cost_usd" double precision NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"cache_read_tokens" bigint NOT NULL,
	"model" text,
	"unpriced_models" text[] NOT NULL,
	"repeat_step" integer,
	"repeat_of" integer,
	"revisit_step" integer,
	"revisit_of" integer,
	"revisit_cycle" integer,
	"stall_step" integer,
	"tool_circuit_step" integer,
	"tool_circuit_tool" text,
	"fabricated_success" boolean NOT NULL,
	"unexplained_stop" boolean NOT NULL,
	"wasted_usd" double precision NOT NULL,
	"first_signal_step" integer,
	"last_received_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "runs_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "spans" (
	"project_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"parent_span_id" text,
	"name" text NOT NULL,
	"kind" smallint NOT NULL,
	"start_ms" double precision NOT NULL,
	"end_ms" double precision,
	"status_code" smallint NOT NULL,
	"status_message" text NOT NULL,
	"attributes" jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"resource" jsonb NOT NULL,
	"scope_name" text NOT NULL,
	"facts" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spans_project_id_trace_id_span_id_pk" PRIMARY KEY("project_id","trace_id","span_id")
);
--> statement-breakpoint
CREATE TABLE "steps" (
	"project_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"ordinal" integer NOT NULL,
	"index" integer NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"name" text NOT NULL,
	"start_ms" double precision NOT NULL,
	"duration_ms" double precision,
	"action" text,
	"action_args" text,
	"action_hash" text,
	"state_hash" text,
	"result" text,
	"result_hash" text,
	"progress" double precision,
	"verdict" text,
	"verdict_source" text,
	"verdict_fields" jsonb,
	"error_class" text,
	"cost_usd" double precision NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"context_tokens" bigint,
	"signals" text[] NOT NULL,
	"repeat_of" integer,
	"revisit_of" integer,
	"revisit_cycle" integer,
	"stall_since" integer,
	CONSTRAINT "steps_project_id_run_id_ordinal_pk" PRIMARY KEY("project_id","run_id","ordinal")
);
--> statement-breakpoint
CREATE TABLE "trace_runs" (
	"project_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"run_id" text NOT NULL,
	CONSTRAINT "trace_runs_project_id_trace_id_pk" PRIMARY KEY("project_id","trace_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_id_idx" ON "api_keys" USING btree ("id");--> statement-breakpoint
CREATE INDEX "runs_started_idx" ON "runs" USING btree ("project_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "runs_category_started_idx" ON "runs" USING btree ("project_id","exit_category","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "runs_agent_started_idx" ON "runs" USING btree ("project_id","agent","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "runs_running_idx" ON "runs" USING btree ("last_received_at") WHERE "runs"."exit_category" = 'running';--> statement-breakpoint
CREATE INDEX "trace_runs_run_idx" ON "trace_runs" USING btree ("project_id","run_id");