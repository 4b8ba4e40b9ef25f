// weekly_rollups, kept by the rollup delta (rollup-delta.ts): per ISO week of started_at (UTC),
// agent, variant and model ('' for a missing name), the runs, verified runs and units, spend,
// wasted spend, runs with a loop signal, runs with unpriced tokens and steps. The migration's backfill repeats this key.
import { sql } from 'drizzle-orm';
import { asPgArray } from '../sql';
import type { RollupSpec } from './rollup-delta';

export const WEEKLY_ROLLUP: RollupSpec = {
  keys: [
    { name: 'week_start', type: 'date' },
    { name: 'agent', type: 'text' },
    { name: 'variant', type: 'text' },
    { name: 'model', type: 'text' },
  ],
  measures: [
    { name: 'runs', type: 'int' },
    { name: 'verified_runs', type: 'int' },
    { name: 'verified_units', type: 'numeric' },
    { name: 'cost_usd', type: 'numeric' },
    { name: 'wasted_usd', type: 'numeric' },
    { name: 'loop_runs', type: 'int' },
    { name: 'unpriced_runs', type: 'int' },
    { name: 'step_count', type: 'bigint' },
  ],
  contribution: (projectId, runIds) => sql`
    select date_trunc('week', started_at at time zone 'UTC')::date as week_start,
      coalesce(agent, '') as agent, coalesce(variant, '') as variant,
      coalesce(model, '') as model,
      count(*)::int as runs,
      (count(*) filter (where verification = 'verified'))::int as verified_runs,
      coalesce(sum(verified_units::numeric), 0) as verified_units,
      coalesce(sum(cost_usd::numeric), 0) as cost_usd,
      coalesce(sum(wasted_usd::numeric), 0) as wasted_usd,
      (count(*) filter (where first_signal_step is not null))::int as loop_runs,
      (count(*) filter (where cardinality(unpriced_models) > 0))::int as unpriced_runs,
      coalesce(sum(step_count), 0)::bigint as step_count
    from runs
    where project_id = ${projectId}::uuid
      ${runIds === null ? sql`` : sql`and id = any(${asPgArray(runIds)}::text[])`}
    group by 1, 2, 3, 4`,
  targets: [
    {
      table: 'weekly_rollups',
      keys: [
        { name: 'week_start', expr: 'd.week_start', type: 'date' },
        { name: 'agent', expr: 'd.agent', type: 'text' },
        { name: 'variant', expr: 'd.variant', type: 'text' },
        { name: 'model', expr: 'd.model', type: 'text' },
      ],
    },
  ],
};
