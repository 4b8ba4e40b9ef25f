// The models of a window's runs, for the search bar's model menu: read from the weekly rollup
// (keyed by model), so it costs the same however many runs the window holds.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import type { Executor } from '../sql';
import { queryRows } from '../sql';

export async function runModels(
  db: Executor,
  { projectId, window }: { projectId: string; window: TimeWindow },
  limit = 100,
): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`select model from weekly_rollups
        where project_id = ${projectId}::uuid and model <> ''
          and week_start >= date_trunc('week', ${window.from.toISOString()}::timestamptz at time zone 'UTC')::date
          and week_start < ${window.to.toISOString()}::timestamptz
        group by model order by sum(runs) desc, model limit ${limit}`,
    z.object({ model: z.string() }),
  );
  return rows.map((r) => r.model);
}
