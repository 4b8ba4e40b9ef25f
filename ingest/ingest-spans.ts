// Validated spans into the database in one transaction: store them (idempotently), map their
// traces to runs, and mark those runs for derivation. A 200 means all of it is committed; the
// deriver (derive-queue.ts) then re-derives the marked runs, and any read of them derives first.
import { mapTracesToRuns } from '../db/write/map-traces-to-runs';
import { storeSpans } from '../db/write/store-spans';
import type { SpanRow } from '../db/write/store-spans';
import type { Database } from '../db/client';
import type { Transaction } from '../db/sql';
import { markRunsDirty } from '../db/write/dirty-runs';
import { countDroppedSpans, findTombstones, lockRunWrites } from '../db/write/deleted-runs';
import { withConflictRetry } from '../db/errors';
import { extractSpanFacts } from './span-facts';
import type { ValidSpan } from './validate';

export interface IngestResult {
  storedSpans: number;
  runIds: string[];
}

export async function ingestSpans(
  db: Database,
  projectId: string,
  spans: readonly ValidSpan[],
): Promise<IngestResult> {
  if (spans.length === 0) return { storedSpans: 0, runIds: [] };
  const runIds = await withConflictRetry(() =>
    db.transaction((tx) => storeValidSpans(tx, projectId, spans)),
  );
  return { storedSpans: spans.length, runIds };
}

/**
 * The writes of `ingestSpans` inside a transaction the caller holds; returns the runs it touched.
 */
export async function storeValidSpans(
  tx: Transaction,
  projectId: string,
  spans: readonly ValidSpan[],
): Promise<string[]> {
  const traces = new Map<string, string | null>();
  await storeSpanRows(tx, projectId, spans, traces);
  return linkTraces(tx, projectId, traces);
}

/**
 * Stores one request's spans (one statement) and adds their traces to `traces`: the run a span
 * names, a later name over an earlier one, a trace without a name mapped to null. Several
 * requests' spans are stored this way before `linkTraces` runs once for them all (the spool's
 * worker), so the trace and mark rows other transactions wait on are locked only for the end of
 * the transaction, not while the rest of its spans are stored.
 */
export async function storeSpanRows(
  tx: Transaction,
  projectId: string,
  spans: readonly ValidSpan[],
  traces: Map<string, string | null>,
): Promise<void> {
  if (spans.length === 0) return;
  const rows = await withoutDeletedRuns(tx, projectId, spans.map(toSpanRow).sort(byIdentity));
  for (const row of rows) {
    const named = (row.facts as { runId?: string }).runId ?? null;
    if (!traces.has(row.traceId) || named !== null)
      traces.set(row.traceId, named ?? traces.get(row.traceId) ?? null);
  }
  await storeSpans(tx, projectId, dedupe(rows));
}

/** Maps the traces to their runs and marks those runs for derivation; the runs touched. */
export async function linkTraces(
  tx: Transaction,
  projectId: string,
  traces: ReadonlyMap<string, string | null>,
): Promise<string[]> {
  if (traces.size === 0) return [];
  const touched = await mapTracesToRuns(tx, projectId, traces);
  await markRunsDirty(tx, projectId, touched);
  return touched;
}

/**
 * The rows, less the spans of runs deleted on a user's request (of a deleted trace, or naming a
 * deleted run): those are counted on the run's tombstone, and the run stays deleted.
 */
async function withoutDeletedRuns(
  tx: Transaction,
  projectId: string,
  rows: SpanRow[],
): Promise<SpanRow[]> {
  const named = (row: SpanRow) => (row.facts as { runId?: string }).runId ?? null;
  const traceIds = [...new Set(rows.map((row) => row.traceId))];
  const runIds = [...new Set(rows.map(named).filter((id): id is string => id !== null))];
  // A statement of its own, before the look: its snapshot is taken once a delete has committed.
  await lockRunWrites(tx, projectId, traceIds, runIds, 'shared');
  const tombstones = await findTombstones(tx, projectId, traceIds, runIds);
  if (tombstones === null) return rows;
  const dropped = new Map<string, number>();
  const kept = rows.filter((row) => {
    const run = tombstones.traces.get(row.traceId) ?? named(row);
    if (run === null || !(tombstones.traces.has(row.traceId) || tombstones.runs.has(run))) {
      return true;
    }
    dropped.set(run, (dropped.get(run) ?? 0) + 1);
    return false;
  });
  await countDroppedSpans(tx, projectId, dropped);
  return kept;
}

function toSpanRow(span: ValidSpan): SpanRow {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    kind: span.kind,
    startMs: span.startMs,
    endMs: span.endMs,
    statusCode: span.statusCode,
    statusMessage: span.statusMessage,
    attributes: span.attributes,
    events: span.events,
    resource: span.resource,
    scopeName: span.scopeName,
    facts: extractSpanFacts(span),
  };
}

function byIdentity(a: SpanRow, b: SpanRow): number {
  return a.traceId < b.traceId
    ? -1
    : a.traceId > b.traceId
      ? 1
      : a.spanId < b.spanId
        ? -1
        : a.spanId > b.spanId
          ? 1
          : 0;
}

/**
 * One request may carry the same span twice (an open and a closed copy); an upsert cannot touch
 * one row twice, so keep one: the ended copy if only one ended, else the later in the request.
 */
function dedupe(sorted: SpanRow[]): SpanRow[] {
  const out: SpanRow[] = [];
  for (const row of sorted) {
    const last = out[out.length - 1];
    if (!last || last.traceId !== row.traceId || last.spanId !== row.spanId) out.push(row);
    else if (row.endMs !== null || last.endMs === null) out[out.length - 1] = row;
  }
  return out;
}
