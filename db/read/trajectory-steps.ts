// A run's steps for the trajectory view: everything the lanes and the step list draw, and nothing
// heavy (arguments, results and raw attributes come one step at a time from step-span.ts).
import { and, asc, eq } from 'drizzle-orm';
import type { TrajectoryStepRecord } from '../../lib/api-types';
import { steps } from '../schema';
import type { Executor } from '../sql';

export async function trajectorySteps(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<TrajectoryStepRecord[]> {
  const rows = await db
    .select({
      ordinal: steps.ordinal,
      index: steps.index,
      startMs: steps.startMs,
      durationMs: steps.durationMs,
      action: steps.action,
      actionHash: steps.actionHash,
      stateHash: steps.stateHash,
      resultHash: steps.resultHash,
      progress: steps.progress,
      verdict: steps.verdict,
      verdictSource: steps.verdictSource,
      verdictFields: steps.verdictFields,
      errorClass: steps.errorClass,
      costUsd: steps.costUsd,
      inputTokens: steps.inputTokens,
      outputTokens: steps.outputTokens,
      signals: steps.signals,
      repeatOf: steps.repeatOf,
      revisitOf: steps.revisitOf,
      revisitCycle: steps.revisitCycle,
      stallSince: steps.stallSince,
    })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(asc(steps.ordinal));
  return rows.map((r) => ({
    ...r,
    verdict: r.verdict,
    verdictFields: r.verdictFields,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    signals: r.signals,
  }));
}
