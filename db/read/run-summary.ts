// A runs row as the API's RunSummary (and the trajectory view's RunDetail).
import type { RunDetail, RunSummary } from '../../lib/api-types';
import { runs } from '../schema';

export type RunRecord = typeof runs.$inferSelect;

/**
 * The columns a RunSummary is made of. Lists select these, not the whole row: the search text
 * alone may be 16 KB a run, and a page of 50 runs would carry it for nothing.
 */
export const runSummaryColumns = {
  id: runs.id,
  traceIds: runs.traceIds,
  agent: runs.agent,
  variant: runs.variant,
  goal: runs.goal,
  exitReason: runs.exitReason,
  exitCategory: runs.exitCategory,
  exitKind: runs.exitKind,
  verification: runs.verification,
  verifiedUnits: runs.verifiedUnits,
  verificationSource: runs.verificationSource,
  sessionId: runs.sessionId,
  tags: runs.tags,
  startedAt: runs.startedAt,
  endedAt: runs.endedAt,
  durationMs: runs.durationMs,
  stepCount: runs.stepCount,
  costUsd: runs.costUsd,
  inputTokens: runs.inputTokens,
  outputTokens: runs.outputTokens,
  repeatStep: runs.repeatStep,
  repeatOf: runs.repeatOf,
  revisitStep: runs.revisitStep,
  revisitOf: runs.revisitOf,
  revisitCycle: runs.revisitCycle,
  stallStep: runs.stallStep,
  toolCircuitStep: runs.toolCircuitStep,
  toolCircuitTool: runs.toolCircuitTool,
  fabricatedSuccess: runs.fabricatedSuccess,
  unexplainedStop: runs.unexplainedStop,
  wastedUsd: runs.wastedUsd,
};

export type RunSummaryRecord = Pick<RunRecord, keyof typeof runSummaryColumns>;

export function toRunSummary(row: RunSummaryRecord): RunSummary {
  return {
    id: row.id,
    traceIds: row.traceIds,
    agent: row.agent,
    variant: row.variant,
    goal: row.goal,
    exitReason: row.exitReason,
    exitCategory: row.exitCategory,
    exitKind: row.exitKind,
    verification: row.verification,
    verifiedUnits: row.verifiedUnits,
    verificationSource: row.verificationSource,
    sessionId: row.sessionId,
    tags: row.tags,
    startedAt: iso(row.startedAt),
    endedAt: row.endedAt === null ? null : iso(row.endedAt),
    durationMs: row.durationMs,
    stepCount: row.stepCount,
    costUsd: row.costUsd,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    flags: {
      repeat:
        row.repeatStep !== null && row.repeatOf !== null
          ? { step: row.repeatStep, of: row.repeatOf }
          : null,
      revisit:
        row.revisitStep !== null && row.revisitOf !== null && row.revisitCycle !== null
          ? { step: row.revisitStep, of: row.revisitOf, cycleLength: row.revisitCycle }
          : null,
      stall: row.stallStep !== null ? { step: row.stallStep } : null,
      toolCircuit:
        row.toolCircuitStep !== null && row.toolCircuitTool !== null
          ? { step: row.toolCircuitStep, tool: row.toolCircuitTool }
          : null,
      fabricatedSuccess: row.fabricatedSuccess,
      unexplainedStop: row.unexplainedStop,
    },
    wastedUsd: row.wastedUsd,
  };
}

export function toRunDetail(row: RunRecord): RunDetail {
  return {
    ...toRunSummary(row),
    exitDetail: row.exitDetail,
    escalation: row.escalation,
    limits: { maxSteps: row.maxSteps, maxUsd: row.maxUsd, wallClockMs: row.wallClockMs },
    model: row.model,
    unpricedModels: row.unpricedModels,
    cacheReadTokens: row.cacheReadTokens,
    spanCount: row.spanCount,
    firstSignalStep: row.firstSignalStep,
    progressDirection: row.progressDirection === 'up' ? 'up' : 'down',
    elapsedMs: Math.max(0, row.lastSpanEndMs - new Date(row.startedAt).getTime()),
    valueProblems: { count: row.valueProblemCount, first: row.valueProblems },
  };
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
