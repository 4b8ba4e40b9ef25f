// Re-derives runs inside the caller's transaction: lock each run so concurrent derivations of it
// follow one another (each then sees the other's committed spans), load its spans, assemble,
// derive and replace its summary row, steps and rollup shares. One run that cannot be derived
// never takes the others down: the batch is tried at once, and if that fails each run alone, the
// failing ones quarantined (db/write/derive-failures.ts) with their error.
import { describeError, isDatabaseUnavailable, isTransientConflict } from '../db/errors';
import { clearDeriveFailures, recordDeriveFailures } from '../db/write/derive-failures';
import type { DeriveFailure } from '../db/write/derive-failures';
import { stillIdle } from '../db/write/idle-runs';
import { lockRuns } from '../db/write/lock-runs';
import { loadRunSpans } from '../db/write/load-run-spans';
import type { RunSpanCache } from '../db/write/run-span-cache';
import { loadVerdicts } from '../db/write/run-verdicts';
import { saveRuns } from '../db/write/save-runs';
import type { RunRow } from '../db/write/save-runs';
import type { StepRow } from '../db/write/save-steps';
import type { Executor, Transaction } from '../db/sql';
import type { LoopSettings } from '../lib/settings';
import { deriveRun } from '../trajectory/derive-run';
import type { PriceTable } from '../trajectory/pricing';
import { assembleRun } from './assemble-run';
import { MIN_REMEMBERED_SPANS, RunMemos } from './run-memo';
import { fireRunAlerts } from './fire-run-alerts';
import { toRunRow, toStepRows } from './run-rows';
import { savePatterns } from './save-patterns';

export interface DeriveContext {
  prices: PriceTable;
  settings: LoopSettings;
  /** Told of each run that failed to derive (the run is quarantined, the rest go on). */
  onFailure?: (failure: DeriveFailure & { projectId: string }) => void;
  /** Long runs' spans as last loaded from this database (db/write/run-span-cache.ts). */
  spanCache?: RunSpanCache;
}

export interface DeriveOutcome {
  derived: string[];
  failed: DeriveFailure[];
}

export async function deriveRuns(
  tx: Transaction,
  projectId: string,
  runIds: readonly string[],
  context: DeriveContext,
  options: { idle?: boolean } = {},
): Promise<DeriveOutcome> {
  let sorted = [...runIds].sort();
  await lockRuns(tx, projectId, sorted);
  // A span may have arrived since the sweep chose these runs: only the still idle ones end.
  if (options.idle) {
    sorted = await stillIdle(tx, projectId, sorted, context.settings.idleTimeoutMs);
  }
  if (sorted.length === 0) return { derived: [], failed: [] };
  try {
    await tx.transaction((sp) => deriveAndSave(sp, projectId, sorted, context, options));
    await clearDeriveFailures(tx, projectId, sorted);
    return { derived: sorted, failed: [] };
  } catch (error) {
    // An outage, or a transaction met (a deadlock with ingest re-keying a trace, say), is no
    // fault of the runs': let the caller's transaction fail and the marks stay, to be derived
    // again, never quarantined (a quarantined run would read as derived from part of its spans
    // until its backoff ends).
    if (notTheRuns(error)) throw error;
    if (sorted.length === 1) {
      const failed = [{ runId: sorted[0] as string, error: describeError(error) }];
      await recordFailures(tx, projectId, failed, context);
      return { derived: [], failed };
    }
  }
  // Something in the batch failed: each run alone, so only the guilty one is quarantined.
  const derived: string[] = [];
  const failed: DeriveFailure[] = [];
  for (const runId of sorted) {
    try {
      await tx.transaction((sp) => deriveAndSave(sp, projectId, [runId], context, options));
      derived.push(runId);
    } catch (error) {
      if (notTheRuns(error)) throw error;
      failed.push({ runId, error: describeError(error) });
    }
  }
  await clearDeriveFailures(tx, projectId, derived);
  await recordFailures(tx, projectId, failed, context);
  return { derived, failed };
}

// Per process, like the step digests' memo: memos checked against what they are given.
const memos = new RunMemos();

const notTheRuns = (error: unknown) => isDatabaseUnavailable(error) || isTransientConflict(error);

async function recordFailures(
  tx: Transaction,
  projectId: string,
  failed: readonly DeriveFailure[],
  context: DeriveContext,
): Promise<void> {
  await recordDeriveFailures(tx, projectId, failed);
  for (const failure of failed) context.onFailure?.({ ...failure, projectId });
}

async function deriveAndSave(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  context: DeriveContext,
  options: { idle?: boolean },
): Promise<void> {
  const spansByRun = await loadRunSpans(tx, projectId, runIds, context.spanCache);
  const verdicts = await loadVerdicts(tx, projectId, runIds);
  const runRows: RunRow[] = [];
  const stepRows: StepRow[] = [];
  const empty: string[] = [];
  for (const runId of runIds) {
    const spans = spansByRun.get(runId) ?? [];
    if (spans.length === 0) {
      empty.push(runId);
      continue;
    }
    const held = memos.take(projectId, runId);
    const assembled = assembleRun(spans, context.prices, {
      idle: options.idle ?? false,
      ignoreArgsFor: (agent) => context.settings.deriveOptionsFor(agent).ignoreArgs,
      previous: held?.assembly,
      remember: spans.length >= MIN_REMEMBERED_SPANS,
    });
    const human = verdicts.get(runId);
    const derived = deriveRun(
      human ? { ...assembled.input, human } : assembled.input,
      assembled.steps,
      context.settings.deriveOptionsFor(assembled.agent),
      held?.derivation,
    );
    const traceIds = [...new Set(spans.map((s) => s.traceId))].sort();
    runRows.push(toRunRow(runId, traceIds, assembled, derived));
    const rows = toStepRows(runId, assembled, derived, held?.rows);
    for (const step of rows.rows) stepRows.push(step);
    if (assembled.assembly) {
      memos.keep(projectId, runId, {
        assembly: assembled.assembly,
        derivation: derived.memo,
        rows,
      });
    }
  }
  await saveRuns(tx, projectId, runRows, stepRows, empty);
  await fireRunAlerts(tx, projectId, runRows);
  await savePatterns(tx, projectId, runIds, runRows, stepRows);
}
