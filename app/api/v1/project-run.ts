import { getRun } from '@/db/read/get-run';
import type { Database } from '@/db/client';
import type { RunDetail } from '@/lib/api-types';
import { AppError } from '@/lib/app-error';
import { runIdProblem } from '@/lib/filters';
import { requireDatabase, settle } from '@/server/runtime';

/** One run of the caller's project, derived up to now; another project's run is a 404. */
export async function projectRun(
  projectId: string,
  runId: string,
): Promise<{ db: Database; run: RunDetail }> {
  const problem = runIdProblem(runId);
  if (problem) throw new AppError('bad_request', problem);
  await settle(projectId, runId);
  const db = requireDatabase();
  const run = await getRun(db, { projectId, runId });
  if (!run) throw new AppError('not_found', `no run ${JSON.stringify(runId)} in this project`);
  return { db, run };
}
