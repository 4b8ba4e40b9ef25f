// The raw spans of runs as they were received, and their facts replaced: for reading the
// conventions again (a newer version re-extracts what an older one stored wrongly).
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { asJsonParam, asPgArray, column, queryRows } from '../sql';

const rawRow = z.object({
  trace_id: column.text,
  span_id: column.text,
  name: column.text,
  status_code: column.number,
  status_message: column.text,
  attributes: column.json,
  events: column.json,
  resource: column.json,
  facts: column.json,
});
export type RawSpanRow = z.infer<typeof rawRow>;

export async function loadRawSpans(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<RawSpanRow[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows(
    tx,
    sql`select s.trace_id, s.span_id, s.name, s.status_code::int as status_code,
          s.status_message, s.attributes, s.events, s.resource, s.facts
        from trace_runs t
        join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
        where t.project_id = ${projectId}::uuid and t.run_id = any(${asPgArray(runIds)}::text[])`,
    rawRow,
  );
  return rows;
}

export async function replaceSpanFacts(
  tx: Executor,
  projectId: string,
  rows: readonly { traceId: string; spanId: string; facts: unknown }[],
): Promise<void> {
  if (rows.length === 0) return;
  const param = rows.map((r) => ({ trace_id: r.traceId, span_id: r.spanId, facts: r.facts }));
  await tx.execute(sql`
    update spans s set facts = x.facts
    from jsonb_to_recordset(${asJsonParam(param)}::jsonb) as x(trace_id text, span_id text, facts jsonb)
    where s.project_id = ${projectId}::uuid and s.trace_id = x.trace_id and s.span_id = x.span_id`);
}

/** Every quarantined run, by project. */
export async function quarantinedRuns(db: Executor): Promise<Map<string, string[]>> {
  const rows = await queryRows(
    db,
    sql`select project_id, run_id from derive_failures`,
    z.object({ project_id: column.text, run_id: column.text }),
  );
  const byProject = new Map<string, string[]>();
  for (const r of rows)
    byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r.run_id]);
  return byProject;
}
