import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { SpanFacts } from '../../trajectory/span-facts';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';
import { rowKey } from './run-span-cache';
import type { HeldRun, HeldSpan, RunSpanCache, SpanGroups } from './run-span-cache';

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
export type RunSpanRow = Omit<z.output<typeof runSpanRow>, 'version'>;

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
  const held = new Map<string, HeldRun>();
  for (const runId of runIds) {
    const run = cache?.take(projectId, runId);
    if (run) held.set(runId, run);
  }
  const loaded = new Map<string, HeldRun>();
  const whole = runIds.filter((id) => !held.has(id));
  if (whole.length > 0) {
    const read = new Map<string, HeldSpan[]>(whole.map((id) => [id, []]));
    const where = sql`t.run_id = any(${asPgArray(whole)}::text[])`;
    for (const row of await readRows(tx, projectId, where))
      read.get(row.runId)?.push(heldSpan(row));
    for (const [runId, spans] of read) loaded.set(runId, runOf(spans));
  }
  if (held.size > 0) await refresh(tx, projectId, held, loaded);
  for (const [runId, run] of loaded) {
    cache?.keep(projectId, runId, run);
    byRun.set(runId, run.latest.slice());
  }
  return byRun;
}

/** A run's rows in groups, and each span once: of a span id stored with two start times, the copy received last. */
function runOf(spans: readonly HeldSpan[]): HeldRun {
  const run: HeldRun = { groups: new Map(), size: 0, latest: [], ids: new Map() };
  addSpans(run, spans);
  return run;
}

/** Adds rows to the run's groups and its spans. */
function addSpans(run: HeldRun, spans: readonly HeldSpan[]): void {
  let twice = false;
  for (const span of spans) {
    const { traceId, spanId } = span.row;
    let ofTrace = run.groups.get(traceId);
    if (!ofTrace) run.groups.set(traceId, (ofTrace = new Map()));
    const group = ofTrace.get(span.version);
    if (group) group.push(span);
    else ofTrace.set(span.version, [span]);
    run.size++;
    let ids = run.ids.get(traceId);
    if (!ids) run.ids.set(traceId, (ids = new Map()));
    const seen = ids.get(spanId);
    if (seen) twice = true;
    if (!seen || span.receivedMs > seen.receivedMs) ids.set(spanId, span);
    if (!seen) run.latest.push(span.row);
  }
  // A copy replaced the one listed: the list is made again from the copies kept.
  if (twice) {
    run.latest = [];
    for (const ofTrace of run.ids.values())
      for (const span of ofTrace.values()) run.latest.push(span.row);
  }
}

function heldSpan(read: z.output<typeof runSpanRow>): HeldSpan {
  const { version, ...row } = read;
  return { version, receivedMs: row.receivedMs, row };
}

/**
 * The held runs' rows, counted by trace and version (the writing transaction) in the database,
 * and read whole only for the groups whose count is not the one held. A committed transaction's
 * rows of a trace can only get fewer (a row written again takes the new transaction's version;
 * a trace mapped to another run moves all of its rows), so a group of the count held is the very
 * rows held. The list is a row per write, not per span: a long run's batches, not its spans.
 * Where every group held is still there as it was, the new groups only add to the run's spans.
 */
async function refresh(
  tx: Executor,
  projectId: string,
  held: ReadonlyMap<string, HeldRun>,
  loaded: Map<string, HeldRun>,
): Promise<void> {
  const groups = await queryRows(
    tx,
    sql`select t.run_id as "runId", s.trace_id as "traceId", ${VERSION} as version,
          count(*) as rows
        ${runSpans(projectId)} and t.run_id = any(${asPgArray([...held.keys()])}::text[])
        group by t.run_id, s.trace_id, s.xmin, s.received_at`,
    versionGroup,
  );
  // Per run: the groups held as they are, and how many; the rest to read.
  const kept = new Map<string, { groups: SpanGroups; count: number }>(
    [...held.keys()].map((id) => [id, { groups: new Map(), count: 0 }]),
  );
  const unheld = { traces: [] as string[], versions: [] as string[] };
  const changed = { traces: [] as string[], versions: [] as string[] };
  for (const g of groups) {
    const same = held.get(g.runId)?.groups.get(g.traceId)?.get(g.version);
    if (same && same.length === g.rows) {
      const into = kept.get(g.runId)!;
      let ofTrace = into.groups.get(g.traceId);
      if (!ofTrace) into.groups.set(g.traceId, (ofTrace = new Map()));
      ofTrace.set(g.version, same);
      into.count++;
      continue;
    }
    const into = same ? changed : unheld;
    into.traces.push(g.traceId);
    into.versions.push(g.version);
  }
  const runs = asPgArray([...held.keys()]);
  // The receipt times first: a long run's trace holds thousands of rows, and making each one's
  // version text to compare cost twice what fetching it did (EXPLAIN, a 10,000-step run).
  const inGroups = (of: typeof unheld) => sql`t.run_id = any(${runs}::text[])
    and s.received_at = any(array(select timestamptz 'epoch' + u * interval '1 microsecond'
      from unnest(${asPgArray(of.versions.map(receivedMicros))}::bigint[]) u))
    and (s.trace_id, ${VERSION}) in (select * from unnest(${asPgArray(of.traces)}::text[],
      ${asPgArray(of.versions)}::text[]))`;
  // Rows not in a group kept as it is, by run: held ones at their version, and ones read.
  const added = new Map<string, HeldSpan[]>([...held.keys()].map((id) => [id, []]));
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
    const heldRows = new Map<string, HeldSpan>();
    for (const v of versions) {
      const group = held.get(v.runId)?.groups.get(v.traceId)?.get(v.version) ?? [];
      for (const span of group) {
        heldRows.set(
          `${v.runId}\u0000${rowKey(span.row.traceId, span.row.spanId, span.row.startMs)}`,
          span,
        );
      }
    }
    for (const v of versions) {
      const span = heldRows.get(`${v.runId}\u0000${rowKey(v.traceId, v.spanId, v.startMs)}`);
      if (span) {
        added.get(v.runId)!.push(span);
        continue;
      }
      missing.traces.push(v.traceId);
      missing.spans.push(v.spanId);
      missing.starts.push(String(v.startMs));
    }
  }
  const read = (row: z.output<typeof runSpanRow>) => added.get(row.runId)?.push(heldSpan(row));
  if (unheld.traces.length > 0) {
    for (const row of await readRows(tx, projectId, inGroups(unheld))) read(row);
  }
  if (missing.traces.length > 0) {
    const where = sql`t.run_id = any(${runs}::text[])
      and (s.trace_id, s.span_id, s.start_ms) in (
        select * from unnest(${asPgArray(missing.traces)}::text[],
          ${asPgArray(missing.spans)}::text[], ${asPgArray(missing.starts)}::float8[]))`;
    for (const row of await readRows(tx, projectId, where)) read(row);
  }
  for (const [runId, run] of held) {
    const { groups: same, count } = kept.get(runId)!;
    const spans = added.get(runId)!;
    if (count === groupCount(run.groups)) {
      // Every group held is there as it was: the rest only adds to them.
      addSpans(run, spans);
      loaded.set(runId, run);
      continue;
    }
    const all: HeldSpan[] = [];
    for (const ofTrace of same.values()) for (const group of ofTrace.values()) all.push(...group);
    all.push(...spans);
    loaded.set(runId, runOf(all));
  }
}

/** The receipt time in a version (`VERSION`: xmin, then microseconds since the epoch). */
const receivedMicros = (version: string) => version.slice(version.indexOf(':') + 1);

function groupCount(groups: SpanGroups): number {
  let count = 0;
  for (const ofTrace of groups.values()) count += ofTrace.size;
  return count;
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
