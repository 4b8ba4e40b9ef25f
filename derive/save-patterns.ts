// The derive step's share of loop patterns: each derived run's patterns, from the rows just
// saved, replace what the run had (db/write/run-patterns.ts). A module of its own, called once
// from derive-runs.ts, so other derive-time writes merge beside it.
import type { RunRow } from '../db/write/save-runs';
import type { StepRow } from '../db/write/save-steps';
import { replaceRunPatterns } from '../db/write/run-patterns';
import type { RunPatternRow } from '../db/write/run-patterns';
import type { Executor } from '../db/sql';
import { runPatterns } from '../trajectory/loop-patterns';

export async function savePatterns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  runs: readonly RunRow[],
  steps: readonly StepRow[],
): Promise<void> {
  const stepsByRun = new Map<string, StepRow[]>();
  for (const step of steps) {
    const list = stepsByRun.get(step.runId);
    if (list) list.push(step);
    else stepsByRun.set(step.runId, [step]);
  }
  const rows: RunPatternRow[] = [];
  for (const run of runs) {
    // A fragment is no run of its own kind, and a run without a signal has no pattern.
    if (run.fragment || (run.firstSignalStep === null && run.toolCircuitStep === null)) continue;
    for (const pattern of runPatterns(run.agent, stepsByRun.get(run.id) ?? [])) {
      rows.push({
        runId: run.id,
        ...pattern,
        agent: run.agent ?? '',
        startedAtMs: run.startedAtMs,
        wastedUsd: run.wastedUsd,
      });
    }
  }
  await replaceRunPatterns(tx, projectId, runIds, rows);
}
