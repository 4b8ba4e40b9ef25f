import type { StepJson } from '../../lib/api-types';
import type { Executor } from '../sql';
import { apiStepRow, readSteps } from './step-rows';

/** A run's steps in step order. */
export async function listSteps(
  db: Executor,
  run: { projectId: string; runId: string },
): Promise<StepJson[]> {
  const rows = await readSteps(db, apiStepRow, run);
  return rows.map(({ index, spanId, startMs, ...step }) => ({
    index,
    spanId,
    startedAt: new Date(startMs).toISOString(),
    ...step,
  }));
}
