// The price table as synced from the price file, and the models runs used that it has no price
// for: their spend is incomplete, never silently zero.
import { asc, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import type { ModelPrice } from '../../trajectory/pricing';
import { prices } from '../schema';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { runScope } from './run-filters';

export async function listPrices(db: Executor): Promise<ModelPrice[]> {
  return db.select().from(prices).orderBy(asc(prices.model));
}

export interface UnpricedModel {
  model: string;
  runs: number;
  /** What those runs' priced parts cost: a lower bound. */
  knownCostUsd: number;
  lastSeen: string;
}

const row = z.object({
  model: z.string(),
  runs: z.coerce.number(),
  known_cost_usd: z.coerce.number(),
  last_seen: z.string(),
});

export async function unpricedModels(
  db: Executor,
  { projectId, window }: { projectId: string; window: TimeWindow },
): Promise<UnpricedModel[]> {
  const rows = await queryRows(
    db,
    sql`select m as model, count(*)::int as runs,
          coalesce(sum(runs.cost_usd), 0)::float8 as known_cost_usd,
          to_char(max(runs.started_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_seen
        from runs cross join lateral unnest(runs.unpriced_models) as m
        where ${runScope({ projectId, window })} and cardinality(runs.unpriced_models) > 0
        group by m
        order by runs desc, m`,
    row,
  );
  return rows.map((p) => ({
    model: p.model,
    runs: p.runs,
    knownCostUsd: p.known_cost_usd,
    lastSeen: p.last_seen,
  }));
}
