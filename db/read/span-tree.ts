// The spans of one step (its span and every span below it) or of a whole run (every span of its
// traces), each with its timing, status, usage (priced by the caller's table, the one derivation uses)
// and the messages of a model call: one statement,
// capped, scoped by project. The step's tree walks down by parent (spans_parent_idx).
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { SPAN_TREE_LIMIT, SPAN_TREE_MAX } from '../../lib/api-types';
import type { SpanTree, SpanTreeSpan } from '../../lib/api-types';
import type { PriceTable } from '../../trajectory/pricing';
import { readSpanMessages } from '../../trajectory/span-messages';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';
import { attributePairs, isRecord, spanEvents } from './step-span';

/** How deep the walk down goes: a span that names itself (or a descendant) as parent stops here. */
const MAX_DEPTH = 64;

const row = z.object({
  trace_id: column.text,
  span_id: column.text,
  parent_span_id: column.textOrNull,
  name: column.text,
  kind: column.number,
  start_ms: column.number,
  end_ms: column.numberOrNull,
  status_code: column.number,
  status_message: column.text,
  attributes: column.json,
  events: column.json,
  facts: column.json,
  total: column.number,
});
type Row = z.infer<typeof row>;

/** The step's span and its descendants; null when the run has no such step in the project. */
export async function stepSpanTree(
  db: Executor,
  {
    projectId,
    runId,
    ordinal,
    prices,
    limit = SPAN_TREE_LIMIT,
  }: { projectId: string; runId: string; ordinal: number; prices: PriceTable; limit?: number },
): Promise<SpanTree | null> {
  const cap = capOf(limit);
  const rows = await queryRows(
    db,
    sql`
        with recursive tree(trace_id, span_id, start_ms, depth) as (
          select sp.trace_id, sp.span_id, sp.start_ms, 0
          from steps st
          join spans sp
            on sp.project_id = st.project_id and sp.trace_id = st.trace_id
            and sp.span_id = st.span_id
          where st.project_id = ${projectId}::uuid and st.run_id = ${runId}
            and st.ordinal = ${ordinal}
          union all
          select c.trace_id, c.span_id, c.start_ms, t.depth + 1
          from tree t
          join spans c
            on c.project_id = ${projectId}::uuid and c.trace_id = t.trace_id
            and c.parent_span_id = t.span_id
          where t.depth < ${MAX_DEPTH}
        ),
        found as (select distinct trace_id, span_id, start_ms from tree)
        ${pickAndLoad(projectId, cap)}
      `,
    row,
  );
  if (rows.length === 0) return null;
  return assemble(rows, prices, cap);
}

/** Every span of the run's traces, earliest first up to the cap; null when the run has none here. */
export async function runSpanTree(
  db: Executor,
  {
    projectId,
    runId,
    prices,
    limit = SPAN_TREE_LIMIT,
  }: { projectId: string; runId: string; prices: PriceTable; limit?: number },
): Promise<SpanTree | null> {
  const cap = capOf(limit);
  const rows = await queryRows(
    db,
    sql`
        with found as (
          select s.trace_id, s.span_id, s.start_ms
          from trace_runs t
          join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
          where t.project_id = ${projectId}::uuid and t.run_id = ${runId}
        )
        ${pickAndLoad(projectId, cap)}
      `,
    row,
  );
  if (rows.length === 0) return null;
  return assemble(rows, prices, cap);
}

function capOf(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`span tree limit ${limit}`);
  return Math.min(limit, SPAN_TREE_MAX);
}

/**
 * The first `limit` + 1 of the found spans (a `found` CTE of keys and starts) by start,
 * loaded whole, with the count of all found: the heavy columns are read for the picked only.
 * One span id is one span: a copy sent again with another start is a second row (the start is
 * part of the key), and the copy stored last is the one shown, as derivation reads it.
 */
function pickAndLoad(projectId: string, limit: number): SQL {
  return sql`,
    picked as (
      select trace_id, span_id, min(start_ms) as start_ms
      from found
      group by trace_id, span_id
      order by start_ms, trace_id, span_id
      limit ${limit + 1}
    )
    select * from (
      select distinct on (s.trace_id, s.span_id)
        s.trace_id, s.span_id, s.parent_span_id, s.name, s.kind, s.start_ms, s.end_ms,
        s.status_code, s.status_message, s.attributes, s.events, s.facts,
        (select count(*) from (select distinct trace_id, span_id from found) ids) as total
      from picked p
      join spans s
        on s.project_id = ${projectId}::uuid and s.trace_id = p.trace_id and s.span_id = p.span_id
      order by s.trace_id, s.span_id, s.received_at desc
    ) one
    order by start_ms, trace_id, span_id`;
}

function assemble(rows: Row[], prices: PriceTable, limit: number): SpanTree {
  const total = rows[0]?.total ?? rows.length;
  const kept = rows.slice(0, limit);
  return {
    spans: treeOrder(kept).map(({ row: r, depth }) => toSpan(r, depth, prices)),
    total,
    limit,
    capped: total > kept.length,
  };
}

/** Depth first, children by start: a span whose parent is not among them is a root. */
function treeOrder(rows: Row[]): { row: Row; depth: number }[] {
  const key = (traceId: string, spanId: string) => `${traceId}\n${spanId}`;
  const present = new Set(rows.map((r) => key(r.trace_id, r.span_id)));
  const children = new Map<string, Row[]>();
  const roots: Row[] = [];
  for (const r of rows) {
    const parent = r.parent_span_id === null ? null : key(r.trace_id, r.parent_span_id);
    if (parent === null || !present.has(parent) || parent === key(r.trace_id, r.span_id)) {
      roots.push(r);
    } else {
      children.set(parent, [...(children.get(parent) ?? []), r]);
    }
  }
  const out: { row: Row; depth: number }[] = [];
  const seen = new Set<string>();
  const stack = roots.reverse().map((r) => ({ row: r, depth: 0 }));
  while (stack.length > 0) {
    const top = stack.pop()!;
    const id = key(top.row.trace_id, top.row.span_id);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(top);
    const kids = children.get(id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ row: kids[i]!, depth: top.depth + 1 });
  }
  // Spans in a parent cycle reach no root: they follow, flat, so none is lost.
  for (const r of rows) {
    if (!seen.has(key(r.trace_id, r.span_id))) out.push({ row: r, depth: 0 });
  }
  return out;
}

function toSpan(r: Row, depth: number, prices: PriceTable): SpanTreeSpan {
  const facts = isRecord(r.facts) ? r.facts : {};
  const attributes = isRecord(r.attributes) ? r.attributes : {};
  const events = spanEvents(r.events);
  const inputTokens = finite(facts.inputTokens) ?? 0;
  const outputTokens = finite(facts.outputTokens) ?? 0;
  const model = typeof facts.model === 'string' ? facts.model : null;
  const priced =
    model !== null && inputTokens + outputTokens > 0
      ? prices.cost(model, {
          inputTokens,
          outputTokens,
          cacheReadTokens: finite(facts.cacheReadTokens) ?? 0,
        })
      : null;
  return {
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    depth,
    name: r.name,
    kind: r.kind,
    role: typeof facts.role === 'string' ? facts.role : null,
    startMs: r.start_ms,
    endMs: r.end_ms,
    statusCode: r.status_code,
    statusMessage: r.status_message,
    model,
    inputTokens,
    outputTokens,
    costUsd: finite(facts.costUsd) ?? priced,
    messages: readSpanMessages({
      attributes,
      events: events.map((e) => ({ name: e.name, attributes: Object.fromEntries(e.attributes) })),
    }),
    attributes: attributePairs(attributes),
    events,
  };
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
