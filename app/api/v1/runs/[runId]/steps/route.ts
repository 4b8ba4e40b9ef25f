import { listSteps } from '@/db/read/list-steps';
import { apiRead } from '../../../../../read-door';
import { projectRun, runParams, settleRun } from '../../../run-param';

export const dynamic = 'force-dynamic';

export const GET = apiRead(
  { params: runParams, settle: settleRun },
  async ({ db, projectId, params }) => {
    await projectRun(db, projectId, params.runId);
    return { steps: await listSteps(db, { projectId, runId: params.runId }) };
  },
);
