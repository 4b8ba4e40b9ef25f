// One step of a run with what the step list leaves out: arguments, result, per-field verdicts and
// the raw span (attributes, events, resource) as it was received.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AttributePairs, StepSpanDetail } from '../../lib/api-types';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { parseBoundedJson } from '../../trajectory/bounded-json';

const num = z.coerce.number();
const optionalNum = z.coerce.number().nullable();
const jsonValue = z.unknown().transform((v) => (typeof v === 'string' ? safeParse(v) : v));
const row = z.object({
  ordinal: num,
  index: num,
  action: z.string().nullable(),
  action_args: z.string().nullable(),
  result: z.string().nullable(),
  result_hash: z.string().nullable(),
  verdict: z.string().nullable(),
  verdict_source: z.string().nullable(),
  verdict_fields: jsonValue,
  error_class: z.string().nullable(),
  cost_usd: num,
  input_tokens: num,
  output_tokens: num,
  context_tokens: optionalNum,
  duration_ms: optionalNum,
  trace_id: z.string(),
  span_id: z.string(),
  span_name: z.string().nullable(),
  kind: optionalNum,
  parent_span_id: z.string().nullable(),
  start_ms: optionalNum,
  end_ms: optionalNum,
  status_code: optionalNum,
  status_message: z.string().nullable(),
  scope_name: z.string().nullable(),
  attributes: jsonValue,
  events: jsonValue,
  resource: jsonValue,
});

export async function stepSpan(
  db: Executor,
  { projectId, runId, ordinal }: { projectId: string; runId: string; ordinal: number },
): Promise<StepSpanDetail | null> {
  const rows = await queryRows(
    db,
    sql`
      select st.ordinal, st.index, st.action, st.action_args, st.result, st.result_hash, st.verdict,
        st.verdict_source, st.verdict_fields, st.error_class, st.cost_usd, st.input_tokens,
        st.output_tokens, st.context_tokens, st.duration_ms, st.trace_id, st.span_id,
        sp.name as span_name, sp.kind, sp.parent_span_id, sp.start_ms, sp.end_ms, sp.status_code,
        sp.status_message, sp.scope_name, sp.attributes, sp.events, sp.resource
      from steps st
      left join spans sp
        on sp.project_id = st.project_id and sp.trace_id = st.trace_id and sp.span_id = st.span_id
      where st.project_id = ${projectId}::uuid and st.run_id = ${runId} and st.ordinal = ${ordinal}
    `,
    row,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    ordinal: r.ordinal,
    index: r.index,
    action: r.action,
    actionArgs: r.action_args,
    result: r.result,
    resultHash: r.result_hash,
    verdict: r.verdict,
    verdictSource: r.verdict_source,
    verdictFields: isRecord(r.verdict_fields)
      ? attributePairs(r.verdict_fields).map(([k, v]) => [k, v === true] as [string, boolean])
      : null,
    errorClass: r.error_class,
    costUsd: r.cost_usd,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    contextTokens: r.context_tokens,
    durationMs: r.duration_ms,
    traceId: r.trace_id,
    spanId: r.span_id,
    span:
      r.span_name === null
        ? null
        : {
            name: r.span_name,
            kind: r.kind ?? 0,
            parentSpanId: r.parent_span_id,
            startMs: r.start_ms ?? 0,
            endMs: r.end_ms,
            statusCode: r.status_code ?? 0,
            statusMessage: r.status_message ?? '',
            scopeName: r.scope_name ?? '',
            attributes: isRecord(r.attributes) ? attributePairs(r.attributes) : [],
            events: spanEvents(r.events),
            resource: isRecord(r.resource) ? attributePairs(r.resource) : [],
          },
  };
}

/** A stored span's events, each with its attributes as sorted pairs. */
export function spanEvents(
  value: unknown,
): { name: string; timeMs: number; attributes: AttributePairs }[] {
  return Array.isArray(value) ? value.flatMap(toEvent) : [];
}

function toEvent(value: unknown): { name: string; timeMs: number; attributes: AttributePairs }[] {
  if (!isRecord(value)) return [];
  const name = typeof value.name === 'string' ? value.name : '';
  const timeMs = typeof value.timeMs === 'number' ? value.timeMs : 0;
  return [
    {
      name,
      timeMs,
      attributes: isRecord(value.attributes) ? attributePairs(value.attributes) : [],
    },
  ];
}

/** An attribute map as sorted [key, value] pairs (keys such as `__proto__` stay data). */
export function attributePairs(record: Record<string, unknown>): AttributePairs {
  return Object.keys(record)
    .sort()
    .map((key) => [key, record[key]]);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeParse(text: string): unknown {
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : text;
}
