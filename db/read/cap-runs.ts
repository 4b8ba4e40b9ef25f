// The finished runs of a group with each step's spend, for the budget-cap simulator: one query
// over the runs' summary columns and their steps (position, cost). An analysis, not a hot path,
// but bounded: the newest runs first, at most MAX_CAP_RUNS runs and MAX_CAP_STEPS steps in all.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';
import { runScope } from './run-filters';

export const MAX_CAP_RUNS = 1000;
export const MAX_CAP_STEPS = 100_000;

export interface CapRunRecord {
  id: string;
  agent: string | null;
  stepCosts: number[];
  costUsd: number;
  verified: boolean;
  verifiedUnits: number;
  maxSteps: number | null;
  maxUsd: number | null;
  unpriced: boolean;
}

export interface CapRunsResult {
  runs: CapRunRecord[];
  /** Finished runs in the window and group, before the limits. */
  matching: number;
  truncated: boolean;
}

export interface CapRunsQuery {
  projectId: string;
  window: TimeWindow;
  agent?: string;
  variant?: string;
}

const costs = z.preprocess(
  (v) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v),
  z.array(z.coerce.number()),
);
const row = z.object({
  id: z.string(),
  agent: z.string().nullable(),
  cost_usd: z.coerce.number(),
  verified: z.boolean(),
  verified_units: z.coerce.number(),
  max_steps: z.coerce.number().nullable(),
  max_usd: z.coerce.number().nullable(),
  unpriced: z.boolean(),
  matching: z.coerce.number(),
  step_costs: costs,
});

/** Finished runs of the group in the window: a run still going has no final length to replay. */
const finishedRuns = (query: CapRunsQuery): SQL => runScope({ ...query, finished: true });

export async function capRuns(db: Executor, query: CapRunsQuery): Promise<CapRunsResult> {
  const rows = await queryRows(
    db,
    sql`with scoped as (
          select id, agent, started_at, step_count, cost_usd, verification, verified_units, max_steps,
            max_usd, unpriced_models,
            row_number() over (order by started_at desc, id desc) as position,
            sum(step_count) over (order by started_at desc, id desc) as steps_so_far,
            count(*) over () as matching
          from runs
          where ${finishedRuns(query)}
        )
        select r.id, r.agent, r.cost_usd, r.verification = 'verified' as verified, r.verified_units,
          r.max_steps, r.max_usd, cardinality(r.unpriced_models) > 0 as unpriced,
          r.matching::int as matching,
          coalesce((select json_agg(s.cost_usd order by s.ordinal) from steps s
                    where s.project_id = ${query.projectId}::uuid and s.run_id = r.id),
                   '[]'::json) as step_costs
        from scoped r
        where r.position <= ${MAX_CAP_RUNS} and r.steps_so_far <= ${MAX_CAP_STEPS}
        order by r.started_at desc, r.id desc`,
    row,
  );
  const parsed = rows;
  const matching = parsed[0]?.matching ?? (await countMatching(db, query));
  return {
    runs: parsed.map((r) => ({
      id: r.id,
      agent: r.agent,
      stepCosts: r.step_costs,
      costUsd: r.cost_usd,
      verified: r.verified,
      verifiedUnits: r.verified_units,
      maxSteps: r.max_steps,
      maxUsd: r.max_usd,
      unpriced: r.unpriced,
    })),
    matching,
    truncated: parsed.length < matching,
  };
}

/** Only when nothing fit the limits (one run alone over them) do we count separately. */
async function countMatching(db: Executor, query: CapRunsQuery): Promise<number> {
  const [r] = await queryRows(
    db,
    sql`select count(*)::int as n from runs
        where ${finishedRuns(query)}`,
    z.object({ n: column.number }),
  );
  return r?.n ?? 0;
}
