import type { RunDetail, RunSummary } from './api-types';

/** Exactly the RunSummary fields of docs/api.md, whatever else the read model carried. */
export function toRunSummaryJson(run: RunSummary | RunDetail): RunSummary {
  return {
    id: run.id,
    traceIds: run.traceIds,
    agent: run.agent,
    variant: run.variant,
    goal: run.goal,
    exitReason: run.exitReason,
    exitCategory: run.exitCategory,
    exitKind: run.exitKind,
    verification: run.verification,
    verifiedUnits: run.verifiedUnits,
    verificationSource: run.verificationSource,
    sessionId: run.sessionId,
    tags: run.tags,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    durationMs: run.durationMs,
    stepCount: run.stepCount,
    costUsd: run.costUsd,
    inputTokens: run.inputTokens,
    outputTokens: run.outputTokens,
    flags: run.flags,
    wastedUsd: run.wastedUsd,
  };
}
