// Removing runs everywhere they are kept: their summary rows, steps and rollup shares (through
// saveRuns, the one writer of those), their spans, the trace→run map, marks and quarantine
// entries, loop patterns, a person's verdict and the alerts they fired. Every delete goes by key (project_id first), so its cost is that of the rows it
// removes, never of the rows that stay.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';
import { lockRunWrites, tombstoneRuns } from './deleted-runs';
import { lockRuns } from './lock-runs';
import { replaceRunPatterns } from './run-patterns';
import { saveRuns } from './save-runs';
import { deleteByKey } from './time-partitions';

/**
 * Deletes the runs inside the caller's transaction; returns the ids of those that existed. Each
 * run is locked first, so a derivation of it either finished before (and its rows go) or waits
 * and then finds no spans.
 */
export async function deleteRuns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  /** Spans and steps starting before this go with the partitions retention is about to drop. */
  droppedBeforeMs?: number,
  /**
   * A user's deletion: the runs stay deleted (tombstones, db/write/deleted-runs.ts), so their
   * spans stored later, spooled before the delete or sent after it, do not start them again.
   */
  options: { tombstone?: boolean } = {},
): Promise<string[]> {
  const sorted = [...new Set(runIds)].sort();
  if (sorted.length === 0) return [];
  await lockRuns(tx, projectId, sorted);
  const ids = asPgArray(sorted);
  if (options.tombstone) {
    const mapped = await queryRows(
      tx,
      sql`select trace_id from trace_runs where project_id = ${projectId}::uuid
        and run_id = any(${ids}::text[])`,
      z.object({ trace_id: column.text }),
    );
    await lockRunWrites(
      tx,
      projectId,
      mapped.map((t) => t.trace_id),
      sorted,
      'exclusive',
    );
  }
  // A run's traces are its spans' keys: trace_runs (project_id, run_id) finds them.
  const traces = await queryRows(
    tx,
    sql`delete from trace_runs where project_id = ${projectId}::uuid
      and run_id = any(${ids}::text[]) returning trace_id, run_id`,
    z.object({ trace_id: column.text, run_id: column.text }),
  );
  const summaries = await queryRows(
    tx,
    sql`select id from runs where project_id = ${projectId}::uuid and id = any(${ids}::text[])`,
    z.object({ id: column.text }),
  );
  // Steps, runs and every rollup's share, as a run left without spans is removed.
  await saveRuns(tx, projectId, [], [], sorted, droppedBeforeMs);
  await replaceRunPatterns(tx, projectId, sorted, []);
  if (traces.length > 0) {
    await deleteByKey(
      tx,
      'spans',
      sql`project_id = ${projectId}::uuid
        and trace_id = any(${asPgArray(traces.map((t) => t.trace_id))}::text[])`,
      droppedBeforeMs,
    );
  }
  await tx.execute(sql`delete from dirty_runs where project_id = ${projectId}::uuid
    and run_id = any(${ids}::text[])`);
  await tx.execute(sql`delete from derive_failures where project_id = ${projectId}::uuid
    and run_id = any(${ids}::text[])`);
  await tx.execute(sql`delete from run_verdicts where project_id = ${projectId}::uuid
    and run_id = any(${ids}::text[])`);
  // The alerts a run fired quote its goal and agent: a deletion request takes them too.
  await tx.execute(sql`delete from alert_deliveries where project_id = ${projectId}::uuid
    and event_id in (select id from alert_events where project_id = ${projectId}::uuid
      and run_id = any(${ids}::text[]))`);
  await tx.execute(sql`delete from alert_events where project_id = ${projectId}::uuid
    and run_id = any(${ids}::text[])`);
  const existed = new Set([...traces.map((t) => t.run_id), ...summaries.map((r) => r.id)]);
  const deleted = sorted.filter((id) => existed.has(id));
  if (options.tombstone) await tombstoneRuns(tx, projectId, deleted, traces);
  return deleted;
}
