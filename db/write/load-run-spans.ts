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

// One transaction's rows of one trace, as the database holds them now.
const versionGroup = z.object({
  runId: column.text,
  traceId: column.text,
  version: column.text,
  rows: column.number,
});

// xmin changes whenever the row is written again; received_at besides, should xids wrap around.
const VERSION = sql`s.xmin::text || ':' || (extract(epoch from s.received_at) * 1000000)::bigint::text`;

/** A project's span rows with the run their trace is mapped to (`t`, `s`); more conditions follow. */
const runSpans = (projectId: string) => sql`from trace_runs t
  join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
  where t.project_id = ${projectId}::uuid`;

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
    byRun.set(runId, latestCopies([...spans.values()]));
  }
  return byRun;
}

/** Each stored span once: of a span id stored with two start times, the copy received last. */
function latestCopies(spans: readonly HeldSpan[]): RunSpanRow[] {
  // By trace, then span id: the ids as read, no key built per span.
  const latest = new Map<string, Map<string, HeldSpan>>();
  let twice = false;
  for (const span of spans) {
    let ofTrace = latest.get(span.row.traceId);
    if (!ofTrace) latest.set(span.row.traceId, (ofTrace = new Map()));
    const seen = ofTrace.get(span.row.spanId);
    if (seen) twice = true;
    if (!seen || span.receivedMs > seen.receivedMs) ofTrace.set(span.row.spanId, span);
  }
  const rows: RunSpanRow[] = [];
  if (!twice) for (const span of spans) rows.push(span.row);
  else
    for (const ofTrace of latest.values()) for (const span of ofTrace.values()) rows.push(span.row);
  return rows;
}

/**
 * The held runs' rows, counted by trace and version (the writing transaction) in the database,
 * and read whole only for the groups whose count is not the one held. A committed transaction's
 * rows of a trace can only get fewer (a row written again takes the new transaction's version;
 * a trace mapped to another run moves all of its rows), so a group of the count held is the very
 * rows held. The list is a row per write, not per span: a long run's batches, not its spans.
 */
async function refresh(
  tx: Executor,
  projectId: string,
  held: ReadonlyMap<string, Map<string, HeldSpan>>,
  loaded: Map<string, Map<string, HeldSpan>>,
): Promise<void> {
  // Run, then trace, then version: the held rows in the groups the count is by.
  const heldGroups = new Map<string, Map<string, Map<string, [string, HeldSpan][]>>>();
  for (const [runId, spans] of held) {
    const ofRun = new Map<string, Map<string, [string, HeldSpan][]>>();
    heldGroups.set(runId, ofRun);
    for (const entry of spans) {
      const { row, version } = entry[1];
      let ofTrace = ofRun.get(row.traceId);
      if (!ofTrace) ofRun.set(row.traceId, (ofTrace = new Map()));
      const group = ofTrace.get(version);
      if (group) group.push(entry);
      else ofTrace.set(version, [entry]);
    }
  }
  const groups = await queryRows(
    tx,
    sql`select t.run_id as "runId", s.trace_id as "traceId", ${VERSION} as version,
          count(*) as rows
        ${runSpans(projectId)} and t.run_id = any(${asPgArray([...held.keys()])}::text[])
        group by t.run_id, s.trace_id, s.xmin, s.received_at`,
    versionGroup,
  );
  const unheld = { traces: [] as string[], versions: [] as string[] };
  const changed = { traces: [] as string[], versions: [] as string[] };
  for (const g of groups) {
    const same = heldGroups.get(g.runId)?.get(g.traceId)?.get(g.version);
    if (same && same.length === g.rows) {
      const into = loaded.get(g.runId)!;
      for (const [key, span] of same) into.set(key, span);
      continue;
    }
    const into = same ? changed : unheld;
    into.traces.push(g.traceId);
    into.versions.push(g.version);
  }
  const runs = asPgArray([...held.keys()]);
  const inGroups = (of: typeof unheld) => sql`t.run_id = any(${runs}::text[])
    and (s.trace_id, ${VERSION}) in (select * from unnest(${asPgArray(of.traces)}::text[],
      ${asPgArray(of.versions)}::text[]))`;
  // A group of another count than held (a row of it written again, a trace mapped to the run
  // besides): its rows listed, and read only where not held.
  const missing = { traces: [] as string[], spans: [] as string[], starts: [] as string[] };
  if (changed.traces.length > 0) {
    const versions = await queryRows(
      tx,
      sql`select t.run_id as "runId", s.trace_id as "traceId", s.span_id as "spanId",
            s.start_ms as "startMs", ${VERSION} as version
          ${runSpans(projectId)} and ${inGroups(changed)}`,
      versionRow,
    );
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
  }
  if (unheld.traces.length > 0) {
    for (const row of await readRows(tx, projectId, inGroups(unheld))) hold(loaded, row);
  }
  if (missing.traces.length > 0) {
    const where = sql`t.run_id = any(${runs}::text[])
      and (s.trace_id, s.span_id, s.start_ms) in (
        select * from unnest(${asPgArray(missing.traces)}::text[],
          ${asPgArray(missing.spans)}::text[], ${asPgArray(missing.starts)}::float8[]))`;
    for (const row of await readRows(tx, projectId, where)) hold(loaded, row);
  }
}

function readRows(tx: Executor, projectId: string, where: SQL) {
  return queryRows(
    tx,
    sql`select t.run_id as "runId", s.trace_id as "traceId", s.span_id as "spanId",
          s.parent_span_id as "parentSpanId", s.name, s.start_ms as "startMs",
          s.end_ms as "endMs", s.status_code::int as "statusCode",
          s.status_message as "statusMessage", s.facts,
          extract(epoch from s.received_at) * 1000 as "receivedMs", ${VERSION} as version
        ${runSpans(projectId)} and ${where}`,
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
