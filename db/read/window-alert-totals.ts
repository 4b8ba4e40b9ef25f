// What window rules compare, read from the rollups (never from runs): runs per exit category in
// an hour-aligned window (run_rollups), and spend per verified unit in an ISO week
// (weekly_rollups). An agent of '' in a rollup is a run without one.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import { column, queryRows } from '../sql';
import type { Executor } from '../sql';

export interface CategoryShare {
  runs: number;
  inCategory: number;
}

export async function categoryShare(
  db: Executor,
  q: { projectId: string; window: TimeWindow; category: string; agent: string | null },
): Promise<CategoryShare> {
  const agent = q.agent === null ? sql`` : sql`and agent = ${q.agent}`;
  const [row] = await queryRows(
    db,
    sql`select coalesce(sum(runs), 0)::int as runs,
          coalesce(sum(runs) filter (where exit_category::text = ${q.category}), 0)::int as hits
        from run_rollups
        where project_id = ${q.projectId}::uuid and grain = 'hour'
          and bucket >= ${q.window.from.toISOString()}::timestamptz
          and bucket < ${q.window.to.toISOString()}::timestamptz
          and exit_category <> 'running' ${agent}`,
    z.object({ runs: column.number, hits: column.number }),
  );
  return { runs: row?.runs ?? 0, inCategory: row?.hits ?? 0 };
}

export interface WeekSpend {
  costUsd: number;
  verifiedUnits: number;
}

/** Spend and verified units of the ISO week that starts on `monday` (`YYYY-MM-DD`). */
export async function weekSpend(
  db: Executor,
  q: { projectId: string; monday: string; agent: string | null },
): Promise<WeekSpend> {
  const agent = q.agent === null ? sql`` : sql`and agent = ${q.agent}`;
  const [row] = await queryRows(
    db,
    sql`select coalesce(sum(cost_usd), 0)::float8 as cost, coalesce(sum(verified_units), 0)::float8 as units
        from weekly_rollups
        where project_id = ${q.projectId}::uuid and week_start = ${q.monday}::date ${agent}`,
    z.object({ cost: column.number, units: column.number }),
  );
  return { costUsd: row?.cost ?? 0, verifiedUnits: row?.units ?? 0 };
}
