import { and, asc, eq } from 'drizzle-orm';
import type { StepJson } from '../../lib/api-types';
import { steps } from '../schema';
import type { Executor } from '../sql';

export type StepRecord = typeof steps.$inferSelect;

/** A run's steps in step order. */
export async function listSteps(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<StepJson[]> {
  const rows = await db
    .select()
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(asc(steps.ordinal));
  return rows.map(toStepJson);
}

export function toStepJson(row: StepRecord): StepJson {
  return {
    index: row.index,
    spanId: row.spanId,
    startedAt: new Date(row.startMs).toISOString(),
    durationMs: row.durationMs,
    action: row.action,
    actionArgs: row.actionArgs,
    actionHash: row.actionHash,
    stateHash: row.stateHash,
    resultHash: row.resultHash,
    progress: row.progress,
    verdict: row.verdict,
    verdictSource: row.verdictSource,
    verdictFields: row.verdictFields,
    errorClass: row.errorClass,
    costUsd: row.costUsd,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    signals: row.signals,
    repeatOf: row.repeatOf,
    revisitOf: row.revisitOf,
  };
}
