// An assembled and derived run as the rows db/ stores.
import type { RunRow } from '../db/write/save-runs';
import type { StepRow } from '../db/write/save-steps';
import type { DerivedRun } from '../trajectory/derive-run';
import type { StepFindings } from '../trajectory/step';
import type { AssembledRun, AssembledStep } from './assemble-run';

export function toRunRow(
  id: string,
  traceIds: string[],
  run: AssembledRun,
  derived: DerivedRun,
): RunRow {
  const firstSignal =
    derived.firstLoopSignalAt === null ? null : run.steps[derived.firstLoopSignalAt];
  const { flags } = derived;
  return {
    id,
    traceIds: traceIds,
    rootSpanId: run.rootSpanId,
    agent: run.agent,
    variant: run.variant,
    goal: run.goal,
    sessionId: run.sessionId,
    tags: run.tags,
    searchText: run.searchText,
    exitReason: run.input.exitReason?.raw ?? null,
    exitReasonSource: run.input.exitReason?.source ?? null,
    exitDetail: run.input.exitDetail,
    exitCategory: derived.exitCategory,
    exitKind: derived.exitKind,
    verification: derived.verification,
    verifiedUnits: derived.verifiedUnits,
    verificationSource: derived.verificationSource,
    escalation: run.escalation,
    maxSteps: run.limits.maxSteps,
    maxUsd: run.limits.maxUsd,
    wallClockMs: run.limits.wallClockMs,
    progressDirection: run.input.progressDirection,
    startedAtMs: run.startedAtMs,
    endedAtMs: run.endedAtMs,
    durationMs: run.endedAtMs === null ? null : run.endedAtMs - run.startedAtMs,
    lastSpanEndMs: run.lastSpanEndMs,
    stepCount: run.steps.length,
    spanCount: run.spanCount,
    costUsd: run.spend.costUsd,
    inputTokens: run.spend.inputTokens,
    outputTokens: run.spend.outputTokens,
    cacheReadTokens: run.spend.cacheReadTokens,
    model: run.model,
    unpricedModels: run.unpricedModels,
    repeatStep: flags.repeat?.step ?? null,
    repeatOf: flags.repeat?.of ?? null,
    revisitStep: flags.revisit?.step ?? null,
    revisitOf: flags.revisit?.of ?? null,
    revisitCycle: flags.revisit?.cycleLength ?? null,
    stallStep: flags.stall?.step ?? null,
    toolCircuitStep: flags.toolCircuit?.step ?? null,
    toolCircuitTool: flags.toolCircuit?.tool ?? null,
    fabricatedSuccess: flags.fabricatedSuccess,
    unexplainedStop: flags.unexplainedStop,
    fragment: run.fragment,
    wastedUsd: derived.wastedUsd,
    firstSignalStep: firstSignal?.index ?? null,
    valueProblemCount: run.valueProblems.count,
    valueProblems: run.valueProblems.first,
  };
}

/**
 * A run's step rows and what they were made of: a step and its findings that come back as the
 * same objects, at the same position, make the same row.
 */
export interface RowsMemo {
  runId: string;
  steps: readonly AssembledStep[];
  findings: readonly (StepFindings | undefined)[];
  rows: StepRow[];
}

export function toStepRows(
  runId: string,
  run: AssembledRun,
  derived: DerivedRun,
  previous?: RowsMemo,
): RowsMemo {
  const held = previous?.runId === runId ? previous : undefined;
  const rows = run.steps.map((step, k) => {
    const found = derived.steps[k];
    if (held && held.steps[k] === step && held.findings[k] === found) {
      const row = held.rows[k];
      if (row) return row;
    }
    return stepRow(runId, step, k, found);
  });
  return { runId, steps: run.steps, findings: derived.steps, rows };
}

function stepRow(
  runId: string,
  step: AssembledStep,
  k: number,
  found: StepFindings | undefined,
): StepRow {
  return {
    runId: runId,
    ordinal: k + 1,
    index: step.index,
    traceId: step.traceId,
    spanId: step.spanId,
    name: step.name,
    startMs: step.startMs,
    durationMs: step.durationMs,
    action: step.action,
    actionArgs: step.actionArgs,
    actionHash: step.actionHash,
    stateHash: step.stateHash,
    result: step.result,
    resultHash: step.resultHash,
    progress: step.progress,
    verdict: step.verdict,
    verdictSource: step.verdictSource,
    verdictFields: step.verdictFields,
    errorClass: step.errorClass,
    costUsd: step.costUsd,
    inputTokens: step.inputTokens,
    outputTokens: step.outputTokens,
    contextTokens: step.contextTokens,
    signals: found?.signals ?? [],
    repeatOf: found?.repeatOf ?? null,
    revisitOf: found?.revisitOf ?? null,
    revisitCycle: found?.revisitCycle ?? null,
    stallSince: found?.stallSince ?? null,
  };
}
