import { exitReasonGroups } from '@/db/read/exit-reason-groups';
import { resolveWindow, windowParams } from '@/lib/filters';
import { apiRead } from '../../../read-door';

export const dynamic = 'force-dynamic';

export const GET = apiRead(
  { query: windowParams, settle: 'project' },
  async ({ db, projectId, query }) => ({
    groups: await exitReasonGroups(db, {
      projectId,
      window: resolveWindow(query),
      agent: query.agent,
      variant: query.variant,
    }),
  }),
);
