import { and, asc, eq } from 'drizzle-orm';
import type { StepJson } from '../../lib/api-types';
import { steps } from '../schema';
import type { Executor } from '../sql';
import { apiStepRow } from './step-rows';

/**
 * A run's steps in step order. A value a step, not a thousand as the pages read them: a step's
 * arguments are those of every tool call inside it, so a thousand steps have no bound below the
 * 1 GB a value may hold.
 */
export async function listSteps(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<StepJson[]> {
  const rows = await db
    .select({ row: apiStepRow.select })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(asc(steps.ordinal));
  return rows.map(({ row }) => {
    const { index, spanId, startMs, ...step } = apiStepRow.parse(row);
    return {
      index,
      spanId,
      startedAt: new Date(startMs).toISOString(),
      ...step,
    };
  });
}
