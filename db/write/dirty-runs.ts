import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { z } from 'zod';
import { asPgArray, column, queryRows } from '../sql';

/** Marks runs for derivation (in the transaction that stored their spans). */
export async function markRunsDirty(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<void> {
  if (runIds.length === 0) return;
  // A run already marked keeps its mark as it is (its place in the queue, a quarantined run's
  // backoff), but the mark is locked until this transaction ends: a deriver (SKIP LOCKED) leaves
  // it, a read's settle waits for it, so neither takes the mark while the spans it stands for are
  // still uncommitted (DO NOTHING takes no lock: a derivation then took the only mark, missed these
  // spans, and the run stayed derived from part of them).
  await tx.execute(sql`
    insert into dirty_runs (project_id, run_id)
    select ${projectId}::uuid, unnest(${asPgArray([...runIds].sort())}::text[])
    on conflict (project_id, run_id) do update set marked_at = dirty_runs.marked_at`);
}

export interface DirtyRun {
  projectId: string;
  runId: string;
}

const READY = sql.raw(`(not_before is null or not_before <= now())`);

/**
 * Takes marked runs off the queue for this transaction to derive: the oldest `limit` that are
 * due, skipping those another deriver holds. If the transaction fails, the marks come back.
 */
export async function claimDirtyRuns(tx: Executor, limit: number): Promise<DirtyRun[]> {
  const rows = await queryRows(
    tx,
    sql`delete from dirty_runs d using (
          select project_id, run_id from dirty_runs where ${READY} order by marked_at
          limit ${limit} for update skip locked) c
        where d.project_id = c.project_id and d.run_id = c.run_id
        returning d.project_id, d.run_id`,
    z.object({ project_id: column.text, run_id: column.text }),
  );
  return rows.map((r) => ({ projectId: r.project_id, runId: r.run_id }));
}

/**
 * Takes a project's due marks (or just the given run's) off the queue, waiting for a deriver
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
          where project_id = ${projectId}::uuid ${only} and ${READY}
          order by marked_at limit ${options.limit} for update) c
        where d.project_id = c.project_id and d.run_id = c.run_id
        returning d.run_id`,
    z.object({ run_id: column.text }),
  );
  return rows.map((r) => r.run_id);
}

/** How many due runs wait to be derived, per project (quarantined runs waiting out their backoff count nowhere). */
export async function countDirtyRuns(db: Executor): Promise<Map<string, number>> {
  const rows = await queryRows(
    db,
    sql`select project_id, count(*)::int as n from dirty_runs where ${READY} group by project_id`,
    z.object({ project_id: column.text, n: column.number }),
  );
  return new Map(rows.map((r) => [r.project_id, r.n]));
}
