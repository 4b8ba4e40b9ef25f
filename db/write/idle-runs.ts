import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { z } from 'zod';
import { asPgArray, column, queryRows } from '../sql';

/** Runs still `running` whose last span arrived longer ago than the idle timeout, by project. */
export async function findIdleRuns(
  db: Executor,
  idleTimeoutMs: number,
  limit = 500,
): Promise<{ projectId: string; runId: string }[]> {
  const rows = await queryRows(
    db,
    sql`select project_id, id from runs
        where exit_category = 'running'
          and last_received_at < now() - make_interval(secs => ${idleTimeoutMs / 1000})
          and not exists (select 1 from dirty_runs d where d.project_id = runs.project_id and d.run_id = runs.id)
        order by last_received_at limit ${limit}`,
    z.object({ project_id: column.text, id: column.text }),
  );
  return rows.map((r) => ({ projectId: r.project_id, runId: r.id }));
}

/** Of the given runs, those still idle (checked again under the runs' locks). */
export async function stillIdle(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  idleTimeoutMs: number,
): Promise<string[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows(
    tx,
    sql`select id from runs
        where project_id = ${projectId}::uuid and id = any(${asPgArray(runIds)}::text[])
          and exit_category = 'running'
          and last_received_at < now() - make_interval(secs => ${idleTimeoutMs / 1000})
          and not exists (select 1 from dirty_runs d where d.project_id = runs.project_id and d.run_id = runs.id)`,
    z.object({ id: column.text }),
  );
  return rows.map((r) => r.id);
}
