// Re-derive the runs a batch touched, inside the batch's transaction: lock each run so concurrent
// batches derive one after another (each then sees the other's committed spans), load its spans,
// assemble, derive and replace its summary row and steps.
import { stillIdle } from '../db/write/idle-runs';
import { lockRuns } from '../db/write/lock-runs';
import { loadRunSpans } from '../db/write/load-run-spans';
import { saveRuns } from '../db/write/save-runs';
import type { RunRow, StepRow } from '../db/write/save-runs';
import type { Executor } from '../db/sql';
import type { LoopSettings } from '../lib/settings';
import { deriveRun } from '../trajectory/derive-run';
import type { PriceTable } from '../trajectory/pricing';
import { assembleRun } from './assemble-run';
import type { SpanFacts } from './span-facts';
import { toRunRow, toStepRows } from './run-rows';

export interface DeriveContext {
  prices: PriceTable;
  settings: LoopSettings;
}

export async function deriveRuns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  context: DeriveContext,
  options: { idle?: boolean } = {},
): Promise<void> {
  let sorted = [...runIds].sort();
  await lockRuns(tx, projectId, sorted);
  // A span may have arrived since the sweep chose these runs: only the still idle ones end.
  if (options.idle) {
    sorted = await stillIdle(tx, projectId, sorted, context.settings.idleTimeoutMs);
  }
  const spansByRun = await loadRunSpans(tx, projectId, sorted);
  const runRows: RunRow[] = [];
  const stepRows: StepRow[] = [];
  const empty: string[] = [];
  for (const runId of sorted) {
    const spans = spansByRun.get(runId) ?? [];
    if (spans.length === 0) {
      empty.push(runId);
      continue;
    }
    const stored = spans.map((s) => ({ ...s, facts: s.facts as SpanFacts }));
    const assembled = assembleRun(stored, context.prices, { idle: options.idle ?? false });
    const derived = deriveRun(
      assembled.input,
      assembled.steps,
      context.settings.deriveOptionsFor(assembled.agent),
    );
    const traceIds = [...new Set(spans.map((s) => s.traceId))].sort();
    runRows.push(toRunRow(runId, traceIds, assembled, derived));
    stepRows.push(...toStepRows(runId, assembled, derived));
  }
  await saveRuns(tx, projectId, runRows, stepRows, empty);
}
