// A run's steps as the diff aligns them: step numbers and the three hashes, nothing else, so two
// 10,000-step runs cost two narrow index-ordered reads.
import { and, asc, eq } from 'drizzle-orm';
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
