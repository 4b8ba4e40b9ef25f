// A run's steps as the diff aligns them: step numbers and the three hashes, nothing else, so two
// 10,000-step runs cost two narrow index-ordered reads; for the compare page, the few more
// columns its aligned rows show (no arguments, attributes or token counts).
import type { CompareStepRecord } from '../../lib/api-types';
import type { DiffStep } from '../../trajectory/align-runs';
import type { Executor } from '../sql';
import { compareStepRow, diffStepRow, readSteps } from './step-rows';

export function diffSteps(
  db: Executor,
  run: { projectId: string; runId: string },
): Promise<DiffStep[]> {
  return readSteps(db, diffStepRow, run);
}

/** What the compare page's aligned rows show of a run's steps (and the hashes that align them). */
export function compareSteps(
  db: Executor,
  run: { projectId: string; runId: string },
): Promise<CompareStepRecord[]> {
  return readSteps(db, compareStepRow, run);
}
