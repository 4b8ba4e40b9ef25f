// PGlite runs Postgres in one process with no autovacuum launcher: left alone, its tables are
// never analysed (the planner guesses every selectivity, and the search's own statistics sample
// in db/read/search-plan.ts stays empty) and never vacuumed (each update of a run leaves
// a dead row behind for good, and no page is ever marked all-visible for index-only scans).
// This pass does what autovacuum would, by its default thresholds, on the tables that are due.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, queryRows } from '../sql';
import type { Executor } from '../sql';

/** Postgres's own defaults: autovacuum_vacuum_threshold and _scale_factor, and so on. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const INSERT_THRESHOLD = 1000;
const INSERT_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

/** Spooled requests above which a pass waits: PGlite's one engine serves it and ingest alike. */
const BUSY_SPOOL_REQUESTS = 50;
/** The longest a pass waits for a quiet spool. */
const MAX_DEFER_MS = 15 * 60_000;

/** Whether a pass runs now or waits for the spool's backlog to be worked off (up to 15 min). */
export function vacuumPassRunsNow(spooledRequests: number, sinceLastPassMs: number): boolean {
  return spooledRequests <= BUSY_SPOOL_REQUESTS || sinceLastPassMs >= MAX_DEFER_MS;
}

const tableStats = z.object({
  name: column.text,
  live: column.number,
  dead: column.number,
  inserted: column.number,
  modified: column.number,
});
export type TableStats = z.output<typeof tableStats>;

export interface VacuumWork {
  vacuum: string[];
  analyze: string[];
}

/** Which tables autovacuum would vacuum (with analyse) or only analyse, by their counters. */
export function dueTables(tables: readonly TableStats[]): VacuumWork {
  const work: VacuumWork = { vacuum: [], analyze: [] };
  for (const t of tables) {
    const vacuum =
      t.dead > VACUUM_THRESHOLD + VACUUM_SCALE * t.live ||
      t.inserted > INSERT_THRESHOLD + INSERT_SCALE * t.live;
    if (vacuum) work.vacuum.push(t.name);
    else if (t.modified > ANALYZE_THRESHOLD + ANALYZE_SCALE * t.live) work.analyze.push(t.name);
  }
  return work;
}

/**
 * One pass over the schema's plain tables (each week's partition is one; a partitioned parent
 * is not, as autovacuum leaves those too): vacuums and analyses those due, one at a time, so
 * reads and ingest wait for one table's work at most.
 */
export async function vacuumWhereDue(db: Executor): Promise<VacuumWork> {
  const tables = await queryRows(
    db,
    sql`select s.relname as name, s.n_live_tup as live, s.n_dead_tup as dead,
          s.n_ins_since_vacuum as inserted, s.n_mod_since_analyze as modified
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = current_schema() and c.relkind = 'r'
        order by s.relname`,
    tableStats,
  );
  const work = dueTables(tables);
  for (const name of work.vacuum) await db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
  for (const name of work.analyze) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return work;
}
