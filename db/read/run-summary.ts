// A runs row as the API's RunSummary (and the trajectory view's RunDetail).
import type { RunDetail, RunSummary } from '../../lib/api-types';
import type { runs } from '../schema';

export type RunRecord = typeof runs.$inferSelect;

export function toRunSummary(row: RunRecord): RunSummary {
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
