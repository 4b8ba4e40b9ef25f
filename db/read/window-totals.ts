// What a window's runs add up to for the home page's headline numbers: runs, spend, wasted spend,
// runs with a loop signal and verified units, summed from the run rollups for the window's whole
// days and hours and from runs for its edges (window-runs.ts), so the answer costs the same at
// millions of steps as at a few. Numeric sums, so the totals equal a sum over the runs exactly.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { WindowTotals } from '../../trajectory/headline-numbers';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { keyFor, windowRuns } from './window-runs';
import type { WindowScope } from './window-runs';

export type { WindowTotals };

const row = z.object({
  runs: z.coerce.number(),
  costUsd: z.coerce.number(),
  wastedUsd: z.coerce.number(),
  loopRuns: z.coerce.number(),
  verifiedUnits: z.coerce.number(),
});

export async function windowTotals(db: Executor, scope: WindowScope): Promise<WindowTotals> {
  const [totals] = await queryRows(
    db,
    sql`select coalesce(sum(runs), 0)::int as runs,
          coalesce(sum(cost_usd), 0)::float8 as "costUsd",
          coalesce(sum(wasted_usd), 0)::float8 as "wastedUsd",
          coalesce(sum(loop_runs), 0)::int as "loopRuns",
          coalesce(sum(verified_units), 0)::float8 as "verifiedUnits"
        from ${windowRuns(scope, { key: keyFor(scope), coarsest: 'day', cost: true, loops: true })} w`,
    row,
  );
  return totals ?? { runs: 0, costUsd: 0, wastedUsd: 0, loopRuns: 0, verifiedUnits: 0 };
}
