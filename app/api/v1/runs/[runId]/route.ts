import { deleteRuns } from '@/db/write/delete-runs';
import { isTransientConflict, withConflictRetry } from '@/db/errors';
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

/**
 * A user's deletion request: the run, its steps, spans and rollup shares, everywhere. Settled
 * first, so what was acknowledged before it (spooled included) is stored and goes with it; the
 * run's tombstone drops what comes after. Meeting a read or ingest of the run, it tries again.
 */
export const DELETE = apiRead(
  { params: runParams, settle: settleRun },
  async ({ db, projectId, params }) => {
    const deleted = await deleteWithRetry(() =>
      db.transaction((tx) =>
        deleteRuns(tx, projectId, [params.runId], undefined, { tombstone: true }),
      ),
    );
    if (deleted.length === 0) {
      throw new AppError('not_found', `no run ${JSON.stringify(params.runId)} in this project`);
    }
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
);

async function deleteWithRetry(work: () => Promise<string[]>): Promise<string[]> {
  try {
    return await withConflictRetry(work, 5);
  } catch (error) {
    if (!isTransientConflict(error)) throw error;
    throw new AppError(
      'conflict',
      'the run is being written or read by others right now; send the delete again',
      { cause: error },
    );
  }
}
