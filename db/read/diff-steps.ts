// A run's steps as the diff aligns them: step numbers and the three hashes, nothing else, so two
// 10,000-step runs cost two narrow index-ordered reads; for the compare page, the few more
// columns its aligned rows show (no arguments, attributes or token counts).
import { and, asc, eq } from 'drizzle-orm';
import type { CompareStepRecord } from '../../lib/api-types';
import type { DiffStep } from '../../trajectory/align-runs';
import { steps } from '../schema';
import type { Executor } from '../sql';

export async function diffSteps(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<DiffStep[]> {
  return db
    .select({
      index: steps.index,
      actionHash: steps.actionHash,
      stateHash: steps.stateHash,
      resultHash: steps.resultHash,
    })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(asc(steps.ordinal));
}

/** What the compare page's aligned rows show of a run's steps (and the hashes that align them). */
export async function compareSteps(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<CompareStepRecord[]> {
  const rows = await db
    .select({
      index: steps.index,
      action: steps.action,
      actionHash: steps.actionHash,
      stateHash: steps.stateHash,
      resultHash: steps.resultHash,
      progress: steps.progress,
      verdict: steps.verdict,
      errorClass: steps.errorClass,
      costUsd: steps.costUsd,
      signals: steps.signals,
    })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(asc(steps.ordinal));
  return rows;
}
