// One step's span for the trajectory view (the page ships no raw attributes): the dashboard's
// own JSON, scoped to the project the page shows, like the page itself.
import { z } from 'zod';
import { stepSpan } from '@/db/read/step-span';
import { AppError } from '@/lib/app-error';
import { parseSearch, projectName, runIdProblem } from '@/lib/filters';
import { requireDatabase } from '@/server/runtime';
import { respond } from '@/app/http';
import { chooseProject } from '@/app/current-project';
import { requireDashboardRequest } from '@/app/dashboard-guard';

export const dynamic = 'force-dynamic';

const query = z.object({ project: projectName.optional() });

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string; ordinal: string }> },
): Promise<Response> {
  return respond(async () => {
    requireDashboardRequest(request);
    const { runId, ordinal: rawOrdinal } = await params;
    const ordinal = Number(rawOrdinal);
    if (!Number.isInteger(ordinal) || ordinal < 1) {
      throw new AppError('bad_request', 'the step position must be a whole number from 1');
    }
    const problem = runIdProblem(runId);
    if (problem) throw new AppError('bad_request', problem);
    const parsed = parseSearch(query, new URL(request.url).searchParams);
    if (!parsed.ok) throw new AppError('bad_request', parsed.message);
    const db = requireDatabase();
    const { current } = await chooseProject(db, parsed.data.project);
    const step = current && (await stepSpan(db, { projectId: current.id, runId, ordinal }));
    if (!step) throw new AppError('not_found', 'no such step of this run in this project');
    return step;
  });
}
