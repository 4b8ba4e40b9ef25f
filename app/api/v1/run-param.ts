import { z } from 'zod';
import { getRun } from '@/db/read/get-run';
import type { Executor } from '@/db/sql';
import type { RunDetail } from '@/lib/api-types';
import { AppError } from '@/lib/app-error';
import { keyId } from '@/lib/filters';

/** The `[runId]` segment of a run route (the read door checks its text), as stored. */
export const runParams = z.object({ runId: keyId() });

/** What a run route settles: that run. */
export const settleRun = ({ params }: { params: { runId: string } }) => params;

/** The run of the caller's project; another project's run is a 404 like a missing one. */
export async function projectRun(
  db: Executor,
  projectId: string,
  runId: string,
): Promise<RunDetail> {
  const run = await getRun(db, { projectId, runId });
  if (!run) throw new AppError('not_found', `no run ${JSON.stringify(runId)} in this project`);
  return run;
}
