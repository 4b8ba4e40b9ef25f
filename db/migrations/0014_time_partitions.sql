-- spans and steps become partitioned by week of start_ms (hand-written: drizzle-kit cannot
-- express partitioning). Every existing row moves into the DEFAULT partition here; the server's
-- partition upkeep (db/write/time-partitions.ts) then creates the weekly partitions of the
-- retention window and moves those weeks' rows out of DEFAULT, in one pass, at its first start.
-- Like the migrations before it, it can run again on a database that has it (tests of upgrades
-- rewind the records of later migrations): a table already partitioned is left as it is.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'spans'::regclass) THEN
    ALTER TABLE "spans" RENAME TO "spans_unpartitioned";
    ALTER TABLE "spans_unpartitioned" RENAME CONSTRAINT "spans_project_id_trace_id_span_id_pk" TO "spans_unpartitioned_pk";
    ALTER INDEX "spans_parent_idx" RENAME TO "spans_unpartitioned_parent_idx";
    CREATE TABLE "spans" (LIKE "spans_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("start_ms");
    ALTER TABLE "spans" ADD CONSTRAINT "spans_project_id_trace_id_span_id_start_ms_pk" PRIMARY KEY("project_id","trace_id","span_id","start_ms");
    CREATE INDEX "spans_parent_idx" ON "spans" USING btree ("project_id","trace_id","parent_span_id");
    CREATE TABLE "spans_default" PARTITION OF "spans" DEFAULT;
    INSERT INTO "spans" SELECT * FROM "spans_unpartitioned";
    DROP TABLE "spans_unpartitioned";
  END IF;
END $$;--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'steps'::regclass) THEN
    ALTER TABLE "steps" RENAME TO "steps_unpartitioned";
    ALTER TABLE "steps_unpartitioned" RENAME CONSTRAINT "steps_project_id_run_id_ordinal_pk" TO "steps_unpartitioned_pk";
    CREATE TABLE "steps" (LIKE "steps_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("start_ms");
    ALTER TABLE "steps" ADD CONSTRAINT "steps_project_id_run_id_ordinal_start_ms_pk" PRIMARY KEY("project_id","run_id","ordinal","start_ms");
    CREATE TABLE "steps_default" PARTITION OF "steps" DEFAULT;
    INSERT INTO "steps" SELECT * FROM "steps_unpartitioned";
    DROP TABLE "steps_unpartitioned";
  END IF;
END $$;
