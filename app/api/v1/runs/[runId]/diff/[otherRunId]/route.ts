import { z } from 'zod';
import { runDiff } from '@/db/read/run-diff';
import { apiRead } from '../../../../../../read-door';

export const dynamic = 'force-dynamic';

// GET /api/v1/runs/{a}/diff/{b}: the two runs' steps aligned (docs/api.md, "Compare two runs").
export const GET = apiRead(
  {
    params: z.object({ runId: z.string(), otherRunId: z.string() }),
    settle: ({ params }) => ({ runIds: [params.runId, params.otherRunId] }),
  },
  async ({ db, projectId, params }) => runDiff(db, projectId, params.runId, params.otherRunId),
);
