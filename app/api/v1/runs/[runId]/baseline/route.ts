import { baselineRun } from '@/db/read/baseline-run';
import { toRunSummaryJson } from '@/lib/run-json';
import { apiRead } from '../../../../../read-door';
import { projectRun, runParams } from '../../../run-param';

export const dynamic = 'force-dynamic';

// GET /api/v1/runs/{id}/baseline: the last good run to compare with (docs/api.md). The whole
// project is settled: the baseline is any earlier run, not only this one.
export const GET = apiRead(
  { params: runParams, settle: 'project' },
  async ({ db, projectId, params }) => {
    const run = await projectRun(db, projectId, params.runId);
    const baseline = await baselineRun(db, projectId, run);
    return { run: baseline ? toRunSummaryJson(baseline) : null };
  },
);
