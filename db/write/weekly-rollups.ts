// Keeps weekly_rollups current inside the transaction that replaces runs: read the touched runs'
// contributions before they change, then add (new − old) per rollup key in one upsert. Keys are
// written in sorted order, so transactions that share keys lock them in the same order and
// cannot deadlock on them; a key whose change is zero is not written at all (a re-sent span that
// changes nothing takes no rollup lock). Keys left with no runs are deleted.
import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { z } from 'zod';
import { asJsonParam, asPgArray, column, queryRows } from '../sql';

/** A rollup key's share of the touched runs, numerics as exact decimal text. */
const contributionRow = z.object({
  week_start: column.text,
  agent: column.text,
  variant: column.text,
  model: column.text,
  runs: column.number,
  verified_runs: column.number,
  verified_units: column.text,
  cost_usd: column.text,
  wasted_usd: column.text,
  unpriced_runs: column.number,
  step_count: column.text,
});
export type RollupContribution = z.output<typeof contributionRow>;
const rollupKey = z.object({
  week_start: column.text,
  agent: column.text,
  variant: column.text,
  model: column.text,
  runs: column.number,
});

// The one definition of a run's rollup key and contribution (the migration's backfill repeats
// it): the ISO week of started_at at UTC, and '' for a missing name.
const CONTRIBUTION = sql.raw(`
  date_trunc('week', started_at at time zone 'UTC')::date as week_start,
  coalesce(agent, '') as agent, coalesce(variant, '') as variant, coalesce(model, '') as model,
  count(*)::int as runs,
  (count(*) filter (where verification = 'verified'))::int as verified_runs,
  coalesce(sum(verified_units::numeric), 0) as verified_units,
  coalesce(sum(cost_usd::numeric), 0) as cost_usd,
  coalesce(sum(wasted_usd::numeric), 0) as wasted_usd,
  (count(*) filter (where cardinality(unpriced_models) > 0))::int as unpriced_runs,
  coalesce(sum(step_count), 0)::bigint as step_count`);

/** What the given runs add to the rollup as stored now (call before replacing them). */
export async function rollupContributions(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<RollupContribution[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows(
    tx,
    sql`select to_char(c.week_start, 'YYYY-MM-DD') as week_start, c.agent, c.variant, c.model,
          c.runs, c.verified_runs, c.verified_units::text as verified_units,
          c.cost_usd::text as cost_usd, c.wasted_usd::text as wasted_usd, c.unpriced_runs,
          c.step_count::text as step_count
        from (select ${CONTRIBUTION} from runs
              where project_id = ${projectId}::uuid and id = any(${asPgArray(runIds)}::text[])
              group by 1, 2, 3, 4) c`,
    contributionRow,
  );
  return rows;
}

/**
 * Adds the runs' contributions as stored now minus `before` (what they contributed before this
 * transaction changed them) to the rollup.
 */
export async function applyRollupDelta(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  before: readonly RollupContribution[],
): Promise<void> {
  if (runIds.length === 0) return;
  const written = await queryRows(
    tx,
    sql`
    with old as (
      select x.week_start::date as week_start, x.agent, x.variant, x.model, x.runs,
        x.verified_runs, x.verified_units, x.cost_usd, x.wasted_usd, x.unpriced_runs, x.step_count
      from jsonb_to_recordset(${asJsonParam(before)}::jsonb) as x(week_start text, agent text,
        variant text, model text, runs int, verified_runs int, verified_units numeric,
        cost_usd numeric, wasted_usd numeric, unpriced_runs int, step_count bigint)
    ), cur as (
      select ${CONTRIBUTION} from runs
      where project_id = ${projectId}::uuid and id = any(${asPgArray(runIds)}::text[])
      group by 1, 2, 3, 4
    ), delta as (
      select week_start, agent, variant, model, sum(runs)::int as runs,
        sum(verified_runs)::int as verified_runs, sum(verified_units) as verified_units,
        sum(cost_usd) as cost_usd, sum(wasted_usd) as wasted_usd,
        sum(unpriced_runs)::int as unpriced_runs, sum(step_count)::bigint as step_count
      from (
        select * from cur
        union all
        select week_start, agent, variant, model, -runs, -verified_runs, -verified_units,
          -cost_usd, -wasted_usd, -unpriced_runs, -step_count from old
      ) d
      group by week_start, agent, variant, model
      having sum(runs) <> 0 or sum(verified_runs) <> 0 or sum(verified_units) <> 0
        or sum(cost_usd) <> 0 or sum(wasted_usd) <> 0 or sum(unpriced_runs) <> 0
        or sum(step_count) <> 0
    )
    insert into weekly_rollups (project_id, week_start, agent, variant, model, runs,
      verified_runs, verified_units, cost_usd, wasted_usd, unpriced_runs, step_count, updated_at)
    select ${projectId}::uuid, week_start, agent, variant, model, runs, verified_runs,
      verified_units, cost_usd, wasted_usd, unpriced_runs, step_count, now()
    from delta
    order by week_start, agent, variant, model
    on conflict (project_id, week_start, agent, variant, model) do update set
      runs = weekly_rollups.runs + excluded.runs,
      verified_runs = weekly_rollups.verified_runs + excluded.verified_runs,
      verified_units = weekly_rollups.verified_units + excluded.verified_units,
      cost_usd = weekly_rollups.cost_usd + excluded.cost_usd,
      wasted_usd = weekly_rollups.wasted_usd + excluded.wasted_usd,
      unpriced_runs = weekly_rollups.unpriced_runs + excluded.unpriced_runs,
      step_count = weekly_rollups.step_count + excluded.step_count,
      updated_at = excluded.updated_at
    returning to_char(week_start, 'YYYY-MM-DD') as week_start, agent, variant, model, runs`,
    rollupKey,
  );
  const emptied = written.filter((r) => r.runs <= 0).map(({ runs: _, ...key }) => key);
  if (emptied.length === 0) return;
  await tx.execute(sql`
    delete from weekly_rollups w
    using jsonb_to_recordset(${asJsonParam(emptied)}::jsonb)
      as x(week_start text, agent text, variant text, model text)
    where w.project_id = ${projectId}::uuid and w.week_start = x.week_start::date
      and w.agent = x.agent and w.variant = x.variant and w.model = x.model and w.runs <= 0`);
}
