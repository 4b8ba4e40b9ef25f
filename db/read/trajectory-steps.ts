// A run's steps for the trajectory view: everything the lanes and the step list draw, and nothing
// heavy (arguments, results and raw attributes come one step at a time from step-span.ts).
import type { TrajectoryStepRecord } from '../../lib/api-types';
import type { Executor } from '../sql';
import { readSteps, trajectoryStepRow } from './step-rows';

export function trajectorySteps(
  db: Executor,
  run: { projectId: string; runId: string },
): Promise<TrajectoryStepRecord[]> {
  return readSteps(db, trajectoryStepRow, run);
}
