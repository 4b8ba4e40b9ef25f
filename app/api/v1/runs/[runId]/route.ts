import { deleteRuns } from '@/db/write/delete-runs';
import { AppError } from '@/lib/app-error';
import { toRunSummaryJson } from '@/lib/run-json';
import { apiRead } from '../../../../read-door';
import { projectRun, runParams, settleRun } from '../../run-param';

export const dynamic = 'force-dynamic';

export const GET = apiRead(
  { params: runParams, settle: settleRun },
  async ({ db, projectId, params }) => ({
    run: toRunSummaryJson(await projectRun(db, projectId, params.runId)),
  }),
);

/** A user's deletion request: the run, its steps, spans and rollup shares, everywhere. */
export const DELETE = apiRead(
  { params: runParams, settle: 'nothing' },
  async ({ db, projectId, params }) => {
    const deleted = await db.transaction((tx) => deleteRuns(tx, projectId, [params.runId]));
    if (deleted.length === 0) {
      throw new AppError('not_found', `no run ${JSON.stringify(params.runId)} in this project`);
    }
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
);
