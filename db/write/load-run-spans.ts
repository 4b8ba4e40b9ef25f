import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { SpanFacts } from '../../trajectory/span-facts';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';

// Facts are written by ingest alone (ingest/span-facts.ts), so they are taken as stored.
const runSpanRow = z.object({
  runId: column.text,
  traceId: column.text,
  spanId: column.text,
  parentSpanId: column.textOrNull,
  name: column.text,
  startMs: column.number,
  endMs: column.numberOrNull,
  statusCode: column.number,
  statusMessage: column.text,
  facts: column.json.pipe(z.custom<SpanFacts>((v) => typeof v === 'object' && v !== null)),
  receivedMs: column.number,
});
export type RunSpanRow = Omit<z.output<typeof runSpanRow>, 'receivedMs'>;

/**
 * The spans of the given runs (through their traces), only the columns derivation reads. A span
 * id stored twice with different start times (a client that re-sent it changed) counts once:
 * the copy received last.
 */
export async function loadRunSpans(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, RunSpanRow[]>> {
  const byRun = new Map<string, RunSpanRow[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await queryRows(
    tx,
    sql`select t.run_id as "runId", s.trace_id as "traceId", s.span_id as "spanId",
          s.parent_span_id as "parentSpanId", s.name, s.start_ms as "startMs",
          s.end_ms as "endMs", s.status_code::int as "statusCode",
          s.status_message as "statusMessage", s.facts,
          extract(epoch from s.received_at) * 1000 as "receivedMs"
        from trace_runs t
        join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
        where t.project_id = ${projectId}::uuid and t.run_id = any(${asPgArray(runIds)}::text[])`,
    runSpanRow,
  );
  const latest = new Map<string, z.output<typeof runSpanRow>>();
  for (const row of rows) {
    const key = `${row.traceId}\u0000${row.spanId}`;
    const seen = latest.get(key);
    if (!seen || row.receivedMs > seen.receivedMs) latest.set(key, row);
  }
  for (const { receivedMs: _received, ...row } of latest.values()) byRun.get(row.runId)?.push(row);
  return byRun;
}
