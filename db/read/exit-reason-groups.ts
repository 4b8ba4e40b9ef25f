import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ExitReasonGroup } from '../../lib/api-types';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { keyFor, windowRuns } from './window-runs';
import type { WindowScope } from './window-runs';

const row = z.object({
  exitCategory: z.enum(EXIT_CATEGORIES),
  runs: z.coerce.number(),
  costUsd: z.coerce.number(),
});

/** Runs of the window grouped by exit category, in the taxonomy's order (see window-runs.ts). */
export async function exitReasonGroups(
  db: Executor,
  scope: WindowScope,
): Promise<ExitReasonGroup[]> {
  const rows = await queryRows(
    db,
    sql`select exit_category as "exitCategory", sum(runs)::int as runs,
          coalesce(sum(cost_usd), 0)::float8 as "costUsd"
        from ${windowRuns(scope, { key: keyFor(scope), coarsest: 'day', cost: true })} w
        group by exit_category`,
    row,
  );
  const parsed = rows;
  const total = parsed.reduce((sum, r) => sum + r.runs, 0);
  return parsed
    .sort(
      (a, b) => EXIT_CATEGORIES.indexOf(a.exitCategory) - EXIT_CATEGORIES.indexOf(b.exitCategory),
    )
    .map((r) => ({ ...r, share: total === 0 ? 0 : r.runs / total }));
}
