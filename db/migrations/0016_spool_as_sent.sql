-- The spool keeps a request's body as it was sent: gzip stays gzip (db/schema/ingest-spool.ts).
-- Rows spooled before hold decoded bodies: false. Re-runnable.
ALTER TABLE "ingest_spool" ADD COLUMN IF NOT EXISTS "gzipped" boolean DEFAULT false NOT NULL;
