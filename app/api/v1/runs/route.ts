import { listRuns } from '@/db/read/list-runs';
import { resolveWindow, runListParams } from '@/lib/filters';
import { apiRead } from '../../../read-door';

export const dynamic = 'force-dynamic';

export const GET = apiRead(
  { query: runListParams, settle: 'project' },
  ({ db, projectId, query }) => listRuns(db, { ...query, projectId, window: resolveWindow(query) }),
);
