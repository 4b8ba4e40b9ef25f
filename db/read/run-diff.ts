// Two runs of one project compared step by step (docs/api.md, "Compare two runs").
import type { RunDetail, RunDiffJson } from '../../lib/api-types';
import { AppError } from '../../lib/app-error';
import { toRunSummaryJson } from '../../lib/run-json';
import { alignRuns } from '../../trajectory/align-runs';
import type { Executor } from '../sql';
import { diffSteps } from './diff-steps';
import { getRun } from './get-run';

export interface RunDiff {
  a: RunDetail;
  b: RunDetail;
  json: RunDiffJson;
}

/** Both runs of the project, their steps aligned; a run of another project is a 404. */
export async function readRunDiff(
  db: Executor,
  projectId: string,
  aId: string,
  bId: string,
): Promise<RunDiff> {
  const [a, b, stepsA, stepsB] = await Promise.all([
    getRun(db, { projectId, runId: aId }),
    getRun(db, { projectId, runId: bId }),
    diffSteps(db, { projectId, runId: aId }),
    diffSteps(db, { projectId, runId: bId }),
  ]);
  for (const [id, run] of [
    [aId, a],
    [bId, b],
  ] as const) {
    if (!run) throw new AppError('not_found', `no run ${JSON.stringify(id)} in this project`);
  }
  const { alignment, firstDivergence } = alignRuns(stepsA, stepsB);
  return {
    a: a!,
    b: b!,
    json: {
      a: toRunSummaryJson(a!),
      b: toRunSummaryJson(b!),
      alignment,
      firstDivergence,
      firstSignal: { a: a!.firstSignalStep, b: b!.firstSignalStep },
    },
  };
}

/** The API's answer. */
export async function runDiff(
  db: Executor,
  projectId: string,
  aId: string,
  bId: string,
): Promise<RunDiffJson> {
  return (await readRunDiff(db, projectId, aId, bId)).json;
}
