import { z } from 'zod';
import { getSession } from '@/db/read/sessions';
import { AppError } from '@/lib/app-error';
import { keyId } from '@/lib/filters';
import { toRunSummaryJson } from '@/lib/run-json';
import { apiRead } from '../../../../read-door';

export const dynamic = 'force-dynamic';

const params = z.object({ sessionId: keyId() });

/** One session and its runs in start order; another project's session is a 404. */
export const GET = apiRead({ params, settle: 'project' }, async ({ db, projectId, params }) => {
  const found = await getSession(db, { projectId, sessionId: params.sessionId });
  if (!found) {
    throw new AppError(
      'not_found',
      `no session ${JSON.stringify(params.sessionId)} in this project`,
    );
  }
  return { session: found.session, runs: found.runs.map(toRunSummaryJson) };
});
