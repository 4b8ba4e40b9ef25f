-- Each step row's digest as derivation wrote it, so deriving a run again rewrites only the steps
-- that changed (db/write/save-steps.ts). Rows from before have none: rewritten once. Re-runnable.
ALTER TABLE "steps" ADD COLUMN IF NOT EXISTS "fingerprint" text;
