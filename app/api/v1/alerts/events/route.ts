import { z } from 'zod';
import { listAlertEvents } from '@/db/read/alert-events';
import { resolveWindow, windowParams } from '@/lib/filters';
import { apiRead } from '../../../../read-door';

export const dynamic = 'force-dynamic';

const query = windowParams.pick({ from: true, to: true }).extend({
  ruleId: z.uuid({ error: 'not a rule id (a UUID)' }).optional(),
});

export const GET = apiRead({ query, settle: 'project' }, async ({ db, projectId, query }) => ({
  events: await listAlertEvents(db, {
    projectId,
    window: resolveWindow(query),
    ruleId: query.ruleId,
  }),
}));
