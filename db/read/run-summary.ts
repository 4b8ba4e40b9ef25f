// A runs row as the API's RunSummary (and the trajectory view's RunDetail).
import type { RunDetail, RunSummary } from '../../lib/api-types';
import {
  BUDGET_KINDS,
  EXIT_CATEGORIES,
  VERIFICATION_STATES,
} from '../../trajectory/exit-categories';
import { VERIFICATION_SOURCES } from '../../trajectory/verification';
import { jsonRow, read } from '../json-row';
import { runs } from '../schema';

export type RunRecord = typeof runs.$inferSelect;

/**
 * The columns a RunSummary is made of, as one value a row. Lists select this, not the whole row:
 * the search text alone may be 16 KB a run, and a page of 50 runs would carry it for nothing.
 */
export const runSummaryRow = jsonRow('a listed run', {
  id: [runs.id, read.text],
  traceIds: [runs.traceIds, read.textArray],
  agent: [runs.agent, read.textOrNull],
  variant: [runs.variant, read.textOrNull],
  goal: [runs.goal, read.textOrNull],
  exitReason: [runs.exitReason, read.textOrNull],
  exitCategory: [runs.exitCategory, read.oneOf(EXIT_CATEGORIES)],
  // Plain text columns: a value this version does not know reads as none, not as an error.
  exitKind: [runs.exitKind, read.oneOfOrNull(BUDGET_KINDS)],
  verification: [runs.verification, read.oneOf(VERIFICATION_STATES)],
  verifiedUnits: [runs.verifiedUnits, read.number],
  verificationSource: [runs.verificationSource, read.oneOfOrNull(VERIFICATION_SOURCES)],
  sessionId: [runs.sessionId, read.textOrNull],
  tags: [runs.tags, read.textArray],
  startedAt: [runs.startedAt, read.time],
  endedAt: [runs.endedAt, read.timeOrNull],
  durationMs: [runs.durationMs, read.numberOrNull],
  stepCount: [runs.stepCount, read.number],
  costUsd: [runs.costUsd, read.number],
  inputTokens: [runs.inputTokens, read.number],
  outputTokens: [runs.outputTokens, read.number],
  repeatStep: [runs.repeatStep, read.numberOrNull],
  repeatOf: [runs.repeatOf, read.numberOrNull],
  revisitStep: [runs.revisitStep, read.numberOrNull],
  revisitOf: [runs.revisitOf, read.numberOrNull],
  revisitCycle: [runs.revisitCycle, read.numberOrNull],
  stallStep: [runs.stallStep, read.numberOrNull],
  toolCircuitStep: [runs.toolCircuitStep, read.numberOrNull],
  toolCircuitTool: [runs.toolCircuitTool, read.textOrNull],
  fabricatedSuccess: [runs.fabricatedSuccess, read.boolean],
  unexplainedStop: [runs.unexplainedStop, read.boolean],
  wastedUsd: [runs.wastedUsd, read.number],
});

/** A listed run's columns; a whole RunRecord (with Date times) is one too. */
export type RunSummaryRecord = Omit<
  ReturnType<typeof runSummaryRow.parse>,
  'startedAt' | 'endedAt'
> & { startedAt: string | Date; endedAt: string | Date | null };

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
