// Tombstones of runs deleted on a user's request (db/schema/deleted-runs.ts): written with the
// delete, read as spans are stored so that a deleted run's spans never start it again, and swept
// with the project's retention.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';

/**
 * Orders a user's delete against the storing of the same run's spans: storing takes these
 * locks shared for the traces it writes and the runs its spans name, before it looks for
 * tombstones; a delete takes them exclusive for the run and its traces before it deletes. So
 * either the spans are stored first and the delete (its later statements seeing them) takes them
 * too, or the tombstone is committed first and the storing drops them. Keys in one order (the
 * hash's), so two transactions never wait on each other in a cycle.
 */
export async function lockRunWrites(
  tx: Executor,
  projectId: string,
  traceIds: readonly string[],
  runIds: readonly string[],
  mode: 'shared' | 'exclusive',
): Promise<void> {
  const keys = [
    ...traceIds.map((id) => `${projectId}:trace:${id}`),
    ...runIds.map((id) => `${projectId}:named:${id}`),
  ];
  if (keys.length === 0) return;
  const lock = mode === 'shared' ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
  await tx.execute(sql`select count(${lock}(k)) from (
      select distinct hashtextextended(x, 0) as k from unnest(${asPgArray(keys)}::text[]) as x
      order by k) ordered`);
}

/** Records the runs as deleted, with the traces they were made of. */
export async function tombstoneRuns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  traces: readonly { trace_id: string; run_id: string }[],
): Promise<void> {
  if (runIds.length === 0) return;
  await tx.execute(sql`insert into deleted_runs (project_id, run_id)
    select ${projectId}::uuid, r from unnest(${asPgArray([...runIds])}::text[]) as r
    on conflict (project_id, run_id) do update set deleted_at = now()`);
  if (traces.length === 0) return;
  await tx.execute(sql`insert into deleted_traces (project_id, trace_id, run_id)
    select ${projectId}::uuid, t, r
    from unnest(${asPgArray(traces.map((t) => t.trace_id))}::text[],
      ${asPgArray(traces.map((t) => t.run_id))}::text[]) as x(t, r)
    on conflict (project_id, trace_id) do update set run_id = excluded.run_id, deleted_at = now()`);
}

export interface Tombstones {
  /** Deleted trace → the deleted run it belonged to. */
  traces: Map<string, string>;
  runs: Set<string>;
}

/** Which of these traces and run ids belong to deleted runs; null when none does. */
export async function findTombstones(
  tx: Executor,
  projectId: string,
  traceIds: readonly string[],
  runIds: readonly string[],
): Promise<Tombstones | null> {
  const rows = await queryRows(
    tx,
    sql`select trace_id, run_id from deleted_traces
        where project_id = ${projectId}::uuid and trace_id = any(${asPgArray([...traceIds])}::text[])
      union all
      select null, run_id from deleted_runs
        where project_id = ${projectId}::uuid and run_id = any(${asPgArray([...runIds])}::text[])`,
    z.object({ trace_id: column.textOrNull, run_id: column.text }),
  );
  if (rows.length === 0) return null;
  const found: Tombstones = { traces: new Map(), runs: new Set() };
  for (const row of rows) {
    if (row.trace_id === null) found.runs.add(row.run_id);
    else found.traces.set(row.trace_id, row.run_id);
  }
  return found;
}

/** Counts spans dropped for their deleted runs. */
export async function countDroppedSpans(
  tx: Executor,
  projectId: string,
  dropped: ReadonlyMap<string, number>,
): Promise<void> {
  if (dropped.size === 0) return;
  const runs = [...dropped.keys()].sort();
  await tx.execute(sql`update deleted_runs d set spans_dropped = d.spans_dropped + x.n
    from unnest(${asPgArray(runs)}::text[], ${asPgArray(runs.map((r) => String(dropped.get(r))))}::bigint[])
      as x(run_id, n)
    where d.project_id = ${projectId}::uuid and d.run_id = x.run_id`);
}

/** Forgets tombstones older than the project's retention (its runs would be gone by now). */
export async function expireTombstones(
  tx: Executor,
  projectId: string,
  cutoff: Date,
): Promise<void> {
  const before = cutoff.toISOString();
  await tx.execute(sql`delete from deleted_traces where project_id = ${projectId}::uuid
    and deleted_at < ${before}::timestamptz`);
  await tx.execute(sql`delete from deleted_runs where project_id = ${projectId}::uuid
    and deleted_at < ${before}::timestamptz`);
}
