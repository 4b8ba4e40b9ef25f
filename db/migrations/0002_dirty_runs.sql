CREATE TABLE "dirty_runs" (
	"project_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dirty_runs_project_id_run_id_pk" PRIMARY KEY("project_id","run_id")
);
--> statement-breakpoint
CREATE INDEX "dirty_runs_marked_idx" ON "dirty_runs" USING btree ("marked_at");--> statement-breakpoint
CREATE INDEX "runs_window_idx" ON "runs" USING btree ("project_id","started_at","exit_category","agent","variant","cost_usd");