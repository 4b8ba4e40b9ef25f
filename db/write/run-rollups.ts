// run_rollups, run_category_rollups and run_agent_rollups, kept by the rollup delta
// (rollup-delta.ts): runs, spend, wasted spend, runs with a loop signal (first_signal_step: a
// repeat, revisit or stall, as wasted spend counts them) and verified units per UTC hour and per
// UTC day of started_at, by exit category, agent and variant ('' for a missing name). The window aggregates read them
// (db/read/window-runs.ts). The migration's backfill repeats this key.
import { sql } from 'drizzle-orm';
import { asPgArray } from '../sql';
import type { RollupSpec, RollupTarget } from './rollup-delta';

const GRAINS = `cross join (values ('hour'::rollup_grain), ('day'::rollup_grain)) g(grain)`;
const byGrain = (
  table: string,
  columns: ('exit_category' | 'agent' | 'variant')[],
): RollupTarget => ({
  table,
  keys: [
    { name: 'grain', expr: 'g.grain', type: 'rollup_grain' },
    { name: 'bucket', expr: `date_trunc(g.grain::text, d.hour, 'UTC')`, type: 'timestamptz' },
    ...columns.map((c) => ({
      name: c,
      expr: `d.${c}`,
      type: c === 'exit_category' ? 'exit_category' : 'text',
    })),
  ],
  fanOut: GRAINS,
});

export const RUN_ROLLUP_TARGETS = [
  byGrain('run_rollups', ['exit_category', 'agent', 'variant']),
  byGrain('run_category_rollups', ['exit_category']),
  byGrain('run_agent_rollups', ['agent', 'variant']),
];

export const RUN_ROLLUP: RollupSpec = {
  keys: [
    { name: 'hour', type: 'timestamptz' },
    { name: 'exit_category', type: 'exit_category' },
    { name: 'agent', type: 'text' },
    { name: 'variant', type: 'text' },
  ],
  measures: [
    { name: 'runs', type: 'int' },
    { name: 'cost_usd', type: 'numeric' },
    { name: 'wasted_usd', type: 'numeric' },
    { name: 'loop_runs', type: 'int' },
    { name: 'verified_units', type: 'numeric' },
  ],
  contribution: (projectId, runIds) => sql`
    select date_trunc('hour', started_at, 'UTC') as hour, exit_category,
      coalesce(agent, '') as agent, coalesce(variant, '') as variant,
      count(*)::int as runs, coalesce(sum(cost_usd::numeric), 0) as cost_usd,
      coalesce(sum(wasted_usd::numeric), 0) as wasted_usd,
      (count(*) filter (where first_signal_step is not null))::int as loop_runs,
      coalesce(sum(verified_units::numeric), 0) as verified_units
    from runs
    where project_id = ${projectId}::uuid
      ${runIds === null ? sql`` : sql`and id = any(${asPgArray(runIds)}::text[])`}
    group by 1, 2, 3, 4`,
  targets: RUN_ROLLUP_TARGETS,
};
