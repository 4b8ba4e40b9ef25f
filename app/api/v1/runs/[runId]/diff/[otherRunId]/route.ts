import { z } from 'zod';
import { runDiff } from '@/db/read/run-diff';
import { keyText } from '@/trajectory/key-text';
import { apiRead } from '../../../../../../read-door';

export const dynamic = 'force-dynamic';

// GET /api/v1/runs/{a}/diff/{b}: the two runs' steps aligned (docs/api.md, "Compare two runs").
export const GET = apiRead(
  {
    params: z.object({
      runId: z.string().transform(keyText),
      otherRunId: z.string().transform(keyText),
    }),
    settle: ({ params }) => ({ runIds: [params.runId, params.otherRunId] }),
  },
  async ({ db, projectId, params }) => runDiff(db, projectId, params.runId, params.otherRunId),
);
