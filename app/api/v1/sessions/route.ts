import { z } from 'zod';
import { listSessions } from '@/db/read/sessions';
import { MAX_PAGE_SIZE, resolveWindow, safeText, windowParams } from '@/lib/filters';
import { apiRead } from '../../../read-door';

export const dynamic = 'force-dynamic';

const query = windowParams.omit({ variant: true }).extend({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: safeText().max(500).optional(),
});

/** Runs grouped by session id, the session with the latest run first. */
export const GET = apiRead({ query, settle: 'project' }, ({ db, projectId, query }) =>
  listSessions(db, { ...query, projectId, window: resolveWindow(query) }),
);
