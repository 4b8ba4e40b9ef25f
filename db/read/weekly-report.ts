// The weekly report from the rollup (never from runs or steps): one row per ISO week and group.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { WeeklyGroupBy, WeeklyTotals } from '../../trajectory/report-weekly';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';

const GROUP_COLUMNS: Record<WeeklyGroupBy, string> = {
  agent: 'agent',
  variant: 'variant',
  model: 'model',
};

const row = z.object({
  week_start: z.string(),
  grp: z.string(),
  runs: z.coerce.number(),
  verified_runs: z.coerce.number(),
  verified_units: z.coerce.number(),
  cost_usd: z.coerce.number(),
  wasted_usd: z.coerce.number(),
  unpriced_runs: z.coerce.number(),
});

export interface WeeklyQuery {
  projectId: string;
  /** Mondays (`YYYY-MM-DD`) of the first and last week, inclusive. */
  firstWeek: string;
  lastWeek: string;
  groupBy: WeeklyGroupBy;
}

export async function weeklyTotals(db: Executor, query: WeeklyQuery): Promise<WeeklyTotals[]> {
  const group = sql.raw(GROUP_COLUMNS[query.groupBy]);
  const rows = await queryRows(
    db,
    sql`select to_char(week_start, 'YYYY-MM-DD') as week_start, ${group} as grp,
          sum(runs)::int as runs, sum(verified_runs)::int as verified_runs,
          sum(verified_units)::float8 as verified_units, sum(cost_usd)::float8 as cost_usd,
          sum(wasted_usd)::float8 as wasted_usd, sum(unpriced_runs)::int as unpriced_runs
        from weekly_rollups
        where project_id = ${query.projectId}::uuid
          and week_start >= ${query.firstWeek}::date and week_start <= ${query.lastWeek}::date
        group by 1, 2
        order by 1, 2`,
    row,
  );
  return rows.map((p) => {
    return {
      weekStart: p.week_start,
      group: p.grp === '' ? null : p.grp,
      runs: p.runs,
      verifiedRuns: p.verified_runs,
      verifiedUnits: p.verified_units,
      costUsd: p.cost_usd,
      wastedUsd: p.wasted_usd,
      unpricedRuns: p.unpriced_runs,
    };
  });
}

/** Agents, variants and models with runs in the weeks, for pickers (from the rollup too). */
export async function reportDimensions(
  db: Executor,
  query: Omit<WeeklyQuery, 'groupBy'>,
): Promise<{ agents: string[]; variants: string[]; models: string[] }> {
  const rows = await queryRows(
    db,
    sql`select 'agent' as dim, agent as name, sum(runs)::int as runs from weekly_rollups
          where project_id = ${query.projectId}::uuid and agent <> ''
            and week_start >= ${query.firstWeek}::date and week_start <= ${query.lastWeek}::date
          group by agent
        union all
        select 'variant', variant, sum(runs)::int from weekly_rollups
          where project_id = ${query.projectId}::uuid and variant <> ''
            and week_start >= ${query.firstWeek}::date and week_start <= ${query.lastWeek}::date
          group by variant
        union all
        select 'model', model, sum(runs)::int from weekly_rollups
          where project_id = ${query.projectId}::uuid and model <> ''
            and week_start >= ${query.firstWeek}::date and week_start <= ${query.lastWeek}::date
          group by model`,
    z.object({ dim: column.text, name: column.text, runs: column.number }),
  );
  // Most runs first, so the usual choices lead the lists.
  const pick = (dim: string) =>
    rows
      .filter((r) => r.dim === dim)
      .sort((a, b) => b.runs - a.runs || a.name.localeCompare(b.name))
      .map((r) => r.name);
  return { agents: pick('agent'), variants: pick('variant'), models: pick('model') };
}
