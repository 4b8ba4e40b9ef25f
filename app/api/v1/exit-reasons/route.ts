import { exitReasonGroups } from '@/db/read/exit-reason-groups';
import { resolveWindow, windowParams } from '@/lib/filters';
import { requireDatabase, settle } from '@/server/runtime';
import { respond } from '../../../http';
import { authenticate } from '../auth';
import { parseQuery } from '../parse';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return respond(async () => {
    const projectId = await authenticate(request);
    await settle(projectId);
    const params = parseQuery(request, windowParams);
    const groups = await exitReasonGroups(requireDatabase(), {
      projectId,
      window: resolveWindow(params),
      agent: params.agent,
      variant: params.variant,
    });
    return { groups };
  });
}
