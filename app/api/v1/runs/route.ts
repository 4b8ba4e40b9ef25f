import { listRuns } from '@/db/read/list-runs';
import { resolveWindow, runListParams } from '@/lib/filters';
import { requireDatabase, settle } from '@/server/runtime';
import { respond } from '../../../http';
import { authenticate } from '../auth';
import { parseQuery } from '../parse';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return respond(async () => {
    const projectId = await authenticate(request);
    await settle(projectId);
    const params = parseQuery(request, runListParams);
    return listRuns(requireDatabase(), { ...params, projectId, window: resolveWindow(params) });
  });
}
