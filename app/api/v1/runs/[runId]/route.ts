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
