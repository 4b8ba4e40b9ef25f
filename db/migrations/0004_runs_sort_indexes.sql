CREATE INDEX "runs_cost_idx" ON "runs" USING btree ("project_id","cost_usd","id","started_at");--> statement-breakpoint
CREATE INDEX "runs_wasted_idx" ON "runs" USING btree ("project_id","wasted_usd","id","started_at");--> statement-breakpoint
CREATE INDEX "runs_steps_idx" ON "runs" USING btree ("project_id","step_count","id","started_at");--> statement-breakpoint
CREATE INDEX "runs_duration_idx" ON "runs" USING btree ("project_id",coalesce("duration_ms", -1),"id","started_at");