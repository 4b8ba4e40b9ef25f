import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asPgArray, queryRows } from '../sql';

export interface RunSpanRow {
  runId: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startMs: number;
  endMs: number | null;
  statusCode: number;
  statusMessage: string;
  facts: unknown;
}

/** The spans of the given runs (through their traces), only the columns derivation reads. */
export async function loadRunSpans(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, RunSpanRow[]>> {
  const byRun = new Map<string, RunSpanRow[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await queryRows(
    tx,
    sql`select t.run_id, s.trace_id, s.span_id, s.parent_span_id, s.name, s.start_ms, s.end_ms,
          s.status_code::int as status_code, s.status_message, s.facts
        from trace_runs t
        join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
        where t.project_id = ${projectId}::uuid and t.run_id = any(${asPgArray(runIds)}::text[])`,
  );
  for (const row of rows) {
    const runId = String(row.run_id);
    byRun.get(runId)?.push({
      runId,
      traceId: String(row.trace_id),
      spanId: String(row.span_id),
      parentSpanId: row.parent_span_id === null ? null : String(row.parent_span_id),
      name: String(row.name),
      startMs: Number(row.start_ms),
      endMs: row.end_ms === null ? null : Number(row.end_ms),
      statusCode: Number(row.status_code),
      statusMessage: String(row.status_message),
      facts: typeof row.facts === 'string' ? (JSON.parse(row.facts) as unknown) : row.facts,
    });
  }
  return byRun;
}
