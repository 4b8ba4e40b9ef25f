import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asPgArray, queryRows } from '../sql';

/** Marks runs for derivation (in the transaction that stored their spans). */
export async function markRunsDirty(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<void> {
  if (runIds.length === 0) return;
  await tx.execute(sql`
    insert into dirty_runs (project_id, run_id)
    select ${projectId}::uuid, unnest(${asPgArray([...runIds].sort())}::text[])
    on conflict do nothing`);
}

export interface DirtyRun {
  projectId: string;
  runId: string;
}

/**
 * Takes marked runs off the queue for this transaction to derive: the oldest `limit`, skipping
 * those another deriver holds. If the transaction fails, the marks come back.
 */
export async function claimDirtyRuns(tx: Executor, limit: number): Promise<DirtyRun[]> {
  const rows = await queryRows(
    tx,
    sql`delete from dirty_runs d using (
          select project_id, run_id from dirty_runs order by marked_at
          limit ${limit} for update skip locked) c
        where d.project_id = c.project_id and d.run_id = c.run_id
        returning d.project_id, d.run_id`,
  );
  return rows.map((r) => ({ projectId: String(r.project_id), runId: String(r.run_id) }));
}

/**
 * Takes a project's marked runs (or just the given ones) off the queue, waiting for a deriver
 * that holds any of them, so that a read after this sees every span committed before it.
 */
export async function claimProjectRuns(
  tx: Executor,
  projectId: string,
  options: { runId?: string; limit: number },
): Promise<string[]> {
  const only = options.runId === undefined ? sql`` : sql`and run_id = ${options.runId}`;
  const rows = await queryRows(
    tx,
    sql`delete from dirty_runs d using (
          select project_id, run_id from dirty_runs
          where project_id = ${projectId}::uuid ${only}
          order by marked_at limit ${options.limit} for update) c
        where d.project_id = c.project_id and d.run_id = c.run_id
        returning d.run_id`,
  );
  return rows.map((r) => String(r.run_id));
}

/** How many runs wait to be derived, across projects. */
export async function countDirtyRuns(db: Executor): Promise<number> {
  const [row] = await queryRows(db, sql`select count(*)::int as n from dirty_runs`);
  return Number(row?.n ?? 0);
}
