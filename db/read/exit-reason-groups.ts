import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ExitReasonGroup } from '../../lib/api-types';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { runScope } from './run-filters';
import type { RunScope } from './run-filters';

const row = z.object({
  exitCategory: z.enum(EXIT_CATEGORIES),
  runs: z.coerce.number(),
  costUsd: z.coerce.number(),
});

/** Runs of the window grouped by exit category, in the taxonomy's order. */
export async function exitReasonGroups(
  db: Executor,
  scope: Omit<RunScope, 'exitCategory' | 'flag'>,
): Promise<ExitReasonGroup[]> {
  const rows = await db
    .select({
      exitCategory: runs.exitCategory,
      runs: sql<number>`count(*)::int`,
      costUsd: sql<number>`coalesce(sum(${runs.costUsd}), 0)::float8`,
    })
    .from(runs)
    .where(runScope(scope))
    .groupBy(runs.exitCategory);
  const parsed = rows.map((r) => row.parse(r));
  const total = parsed.reduce((sum, r) => sum + r.runs, 0);
  return parsed
    .sort(
      (a, b) => EXIT_CATEGORIES.indexOf(a.exitCategory) - EXIT_CATEGORIES.indexOf(b.exitCategory),
    )
    .map((r) => ({ ...r, share: total === 0 ? 0 : r.runs / total }));
}
