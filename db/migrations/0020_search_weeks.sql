-- A rare word in a window, found among that window's runs only (db/read/search-weeks.ts): each
-- run's trigrams, as pg_trgm's show_trgm makes them, prefixed by its week (7-day periods from the
-- Unix epoch), in a GIN index. A run whose start moves to another week is reindexed with the row.
-- IMMUTABLE is true of both: a timestamptz's epoch does not depend on the time zone, and
-- show_trgm depends only on its text (and the database's fixed locale). Each keeps the search
-- path it was made with: Postgres 17 (PGlite) builds indexes under a path of pg_catalog only, where
-- pg_trgm's functions are not. Re-runnable.
CREATE OR REPLACE FUNCTION run_search_keys(started_at timestamptz, search_text text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
  AS $$ select array(select floor(extract(epoch from started_at) / 604800)::bigint::text || ':' || k from unnest(show_trgm(search_text)) k) $$;--> statement-breakpoint
-- A search's keys in one week: the trigrams inside its words (none padded by a word's edge, which
-- a longer word containing it would not have).
CREATE OR REPLACE FUNCTION run_search_word_keys(week bigint, words text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
  AS $$ select array(select week::text || ':' || k from unnest(show_trgm(words)) k where strpos(k, ' ') = 0) $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_search_weeks_idx" ON "runs" USING gin (run_search_keys("started_at", "search_text"));
