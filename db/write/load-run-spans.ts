import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { SpanFacts } from '../../trajectory/span-facts';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';
import { rowKey } from './run-span-cache';
import type { HeldSpan, RunSpanCache } from './run-span-cache';

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
  version: column.text,
});
export type RunSpanRow = Omit<z.output<typeof runSpanRow>, 'receivedMs' | 'version'>;

const versionRow = z.object({
  runId: column.text,
  traceId: column.text,
  spanId: column.text,
  startMs: column.number,
  version: column.text,
});

// xmin changes whenever the row is written again; received_at besides, should xids wrap around.
const VERSION = sql`s.xmin::text || ':' || (extract(epoch from s.received_at) * 1000000)::bigint::text`;

/**
 * The spans of the given runs (through their traces), only the columns derivation reads. A span
 * id stored twice with different start times (a client that re-sent it changed) counts once:
 * the copy received last. With a cache, a long run's rows held at their current version are not
 * read again.
 */
export async function loadRunSpans(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  cache?: RunSpanCache,
): Promise<Map<string, RunSpanRow[]>> {
  const byRun = new Map<string, RunSpanRow[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const held = new Map<string, Map<string, HeldSpan>>();
  for (const runId of runIds) {
    const spans = cache?.take(projectId, runId);
    if (spans) held.set(runId, spans);
  }
  const whole = runIds.filter((id) => !held.has(id));
  const loaded = new Map<string, Map<string, HeldSpan>>(runIds.map((id) => [id, new Map()]));
  if (whole.length > 0) {
    const where = sql`t.run_id = any(${asPgArray(whole)}::text[])`;
    for (const row of await readRows(tx, projectId, where)) hold(loaded, row);
  }
  if (held.size > 0) await refresh(tx, projectId, held, loaded);
  for (const [runId, spans] of loaded) {
    cache?.keep(projectId, runId, spans);
    const latest = new Map<string, HeldSpan>();
    for (const span of spans.values()) {
      const key = `${span.row.traceId}\u0000${span.row.spanId}`;
      const seen = latest.get(key);
      if (!seen || span.receivedMs > seen.receivedMs) latest.set(key, span);
    }
    byRun.set(
      runId,
      [...latest.values()].map((s) => s.row),
    );
  }
  return byRun;
}

/** The held runs' rows: each one's version listed, and read whole only where it is not held. */
async function refresh(
  tx: Executor,
  projectId: string,
  held: ReadonlyMap<string, Map<string, HeldSpan>>,
  loaded: Map<string, Map<string, HeldSpan>>,
): Promise<void> {
  const versions = await queryRows(
    tx,
    sql`select t.run_id as "runId", s.trace_id as "traceId", s.span_id as "spanId",
          s.start_ms as "startMs", ${VERSION} as version
        from trace_runs t
        join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
        where t.project_id = ${projectId}::uuid
          and t.run_id = any(${asPgArray([...held.keys()])}::text[])`,
    versionRow,
  );
  const missing = { traces: [] as string[], spans: [] as string[], starts: [] as string[] };
  for (const v of versions) {
    const key = rowKey(v.traceId, v.spanId, v.startMs);
    const span = held.get(v.runId)?.get(key);
    if (span && span.version === v.version) {
      loaded.get(v.runId)!.set(key, span);
      continue;
    }
    missing.traces.push(v.traceId);
    missing.spans.push(v.spanId);
    missing.starts.push(String(v.startMs));
  }
  if (missing.traces.length === 0) return;
  const where = sql`t.run_id = any(${asPgArray([...held.keys()])}::text[])
    and (s.trace_id, s.span_id, s.start_ms) in (
      select * from unnest(${asPgArray(missing.traces)}::text[],
        ${asPgArray(missing.spans)}::text[], ${asPgArray(missing.starts)}::float8[]))`;
  for (const row of await readRows(tx, projectId, where)) hold(loaded, row);
}

function readRows(tx: Executor, projectId: string, where: SQL) {
  return queryRows(
    tx,
    sql`select t.run_id as "runId", s.trace_id as "traceId", s.span_id as "spanId",
          s.parent_span_id as "parentSpanId", s.name, s.start_ms as "startMs",
          s.end_ms as "endMs", s.status_code::int as "statusCode",
          s.status_message as "statusMessage", s.facts,
          extract(epoch from s.received_at) * 1000 as "receivedMs", ${VERSION} as version
        from trace_runs t
        join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
        where t.project_id = ${projectId}::uuid and ${where}`,
    runSpanRow,
  );
}

function hold(loaded: Map<string, Map<string, HeldSpan>>, read: z.output<typeof runSpanRow>): void {
  const { receivedMs, version, ...row } = read;
  loaded.get(row.runId)?.set(rowKey(row.traceId, row.spanId, row.startMs), {
    version,
    receivedMs,
    row,
  });
}
