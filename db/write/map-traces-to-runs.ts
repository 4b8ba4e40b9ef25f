import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { z } from 'zod';
import { asJsonParam, asPgArray, column, queryRows } from '../sql';

/**
 * Records which run each trace of a batch belongs to and returns every run whose spans changed:
 * the runs of these traces, and any run a trace just left (it is re-derived, or deleted if empty).
 * A trace is its own run until one of its spans names a `loop.run.id`.
 */
export async function mapTracesToRuns(
  tx: Executor,
  projectId: string,
  traces: ReadonlyMap<string, string | null>,
): Promise<string[]> {
  const traceIds = [...traces.keys()].sort();
  if (traceIds.length === 0) return [];
  const existing = new Map<string, string>();
  const rows = await queryRows(
    tx,
    sql`select trace_id, run_id from trace_runs
        where project_id = ${projectId}::uuid and trace_id = any(${asPgArray(traceIds)}::text[])`,
    z.object({ trace_id: column.text, run_id: column.text }),
  );
  for (const row of rows) existing.set(row.trace_id, row.run_id);

  const touched = new Set<string>();
  const changes: { trace_id: string; run_id: string }[] = [];
  for (const traceId of traceIds) {
    const named = traces.get(traceId) ?? null;
    const before = existing.get(traceId);
    const runId = named ?? before ?? traceId;
    touched.add(runId);
    if (before !== undefined && before !== runId) touched.add(before);
    if (before !== runId) changes.push({ trace_id: traceId, run_id: runId });
  }
  if (changes.length > 0) {
    await tx.execute(sql`
      insert into trace_runs (project_id, trace_id, run_id)
      select ${projectId}::uuid, x.trace_id, x.run_id
      from jsonb_to_recordset(${asJsonParam(changes)}::jsonb) as x(trace_id text, run_id text)
      on conflict (project_id, trace_id) do update set run_id = excluded.run_id
    `);
  }
  return [...touched].sort();
}
