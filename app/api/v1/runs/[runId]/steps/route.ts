import { getRun } from '@/db/read/get-run';
import { listSteps } from '@/db/read/list-steps';
import { AppError } from '@/lib/app-error';
import { requireDatabase, settle } from '@/server/runtime';
import { respond } from '../../../../../http';
import { authenticate } from '../../../auth';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string }> },
): Promise<Response> {
  return respond(async () => {
    const projectId = await authenticate(request);
    const { runId } = await params;
    await settle(projectId, runId);
    const db = requireDatabase();
    if (!(await getRun(db, { projectId, runId }))) {
      throw new AppError('not_found', `no run ${JSON.stringify(runId)} in this project`);
    }
    return { steps: await listSteps(db, { projectId, runId }) };
  });
}
