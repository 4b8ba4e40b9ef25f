import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import type { spans } from '../schema';
import { asJsonParam } from '../sql';

/** A span as ingest stores it: the spans table's insert row. */
export type SpanRow = Required<Omit<typeof spans.$inferInsert, 'projectId' | 'receivedAt'>>;

/**
 * One statement for the whole batch. A span sent again is stored once; a later copy completes an
 * earlier one (an end time, more attributes, an error status) and never erases what it had. The
 * start time is part of a span's key (the tables are partitioned by it): a copy with another
 * start is a second row, which derivation reads as one span (db/write/load-run-spans.ts).
 * Rows must come sorted by (traceId, spanId) so concurrent batches lock rows in one order.
 */
export async function storeSpans(
  tx: Executor,
  projectId: string,
  rows: readonly SpanRow[],
): Promise<void> {
  if (rows.length === 0) return;
  // A request's spans share one or a few resources: each is sent once and the rows point at it,
  // not repeated per row (about a sixth of the parameter in the ingest bench's batches).
  const resources: unknown[] = [];
  const resourceAt = new Map<unknown, number>();
  const pointing = rows.map((row) => {
    let at = resourceAt.get(row.resource);
    if (at === undefined) {
      at = resources.length;
      resources.push(row.resource);
      resourceAt.set(row.resource, at);
    }
    return { ...row, resource: at };
  });
  await tx.execute(sql`
    insert into spans (project_id, trace_id, span_id, parent_span_id, name, kind, start_ms, end_ms,
      status_code, status_message, attributes, events, resource, scope_name, facts, received_at)
    select ${projectId}::uuid, x."traceId", x."spanId", x."parentSpanId", x.name, x.kind, x."startMs",
      x."endMs", x."statusCode", x."statusMessage", x.attributes, x.events,
      (select ${asJsonParam(resources)}::jsonb) -> x.resource, x."scopeName", x.facts, now()
    from jsonb_to_recordset(${asJsonParam(pointing)}::jsonb) as x("traceId" text, "spanId" text,
      "parentSpanId" text, name text, kind smallint, "startMs" float8, "endMs" float8,
      "statusCode" smallint, "statusMessage" text, attributes jsonb, events jsonb, resource int,
      "scopeName" text, facts jsonb)
    on conflict (project_id, trace_id, span_id, start_ms) do update set
      parent_span_id = coalesce(excluded.parent_span_id, spans.parent_span_id),
      name = excluded.name,
      kind = excluded.kind,
      end_ms = coalesce(excluded.end_ms, spans.end_ms),
      status_code = case when excluded.status_code <> 0 then excluded.status_code else spans.status_code end,
      status_message = case when excluded.status_message <> '' then excluded.status_message else spans.status_message end,
      attributes = spans.attributes || excluded.attributes,
      events = case when jsonb_array_length(excluded.events) >= jsonb_array_length(spans.events)
        then excluded.events else spans.events end,
      resource = spans.resource || excluded.resource,
      facts = spans.facts || excluded.facts,
      received_at = now()
  `);
}
