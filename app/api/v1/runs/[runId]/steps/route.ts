import { listSteps } from '@/db/read/list-steps';
import { respond } from '../../../../../http';
import { authenticate } from '../../../auth';
import { projectRun } from '../../../project-run';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string }> },
): Promise<Response> {
  return respond(async () => {
    const projectId = await authenticate(request);
    const { runId } = await params;
    const { db } = await projectRun(projectId, runId);
    return { steps: await listSteps(db, { projectId, runId }) };
  });
}
