import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { queryRows } from '../sql';

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
        order by last_received_at limit ${limit}`,
  );
  return rows.map((r) => ({ projectId: String(r.project_id), runId: String(r.id) }));
}
