// One step's span tree (the step's span and every span below it, capped) for the trajectory
// view, loaded when the step is opened: the dashboard's own JSON, scoped like the page.
import { z } from 'zod';
import { stepSpanTree } from '@/db/read/span-tree';
import { AppError } from '@/lib/app-error';
import { projectName, runIdProblem } from '@/lib/filters';
import { getRuntime } from '@/server/runtime';
import { respond } from '@/app/http';
import { dashboardRequestRead, schemaParse } from '@/app/read-door';

export const dynamic = 'force-dynamic';

const query = z.object({ project: projectName.optional() });

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string; ordinal: string }> },
): Promise<Response> {
  return respond(async () => {
    const { runId, ordinal: rawOrdinal } = await params;
    const ordinal = Number(rawOrdinal);
    if (!Number.isInteger(ordinal) || ordinal < 1) {
      throw new AppError('bad_request', 'the step position must be a whole number from 1');
    }
    const problem = runIdProblem(runId);
    if (problem) throw new AppError('bad_request', problem);
    // Asked when a step is opened: it settles nothing, the page it serves did.
    const read = await dashboardRequestRead(request, {
      parse: schemaParse(query),
      project: (q: z.infer<typeof query>) => q.project,
      settle: 'nothing',
    });
    if (!read.ok) throw new AppError('bad_request', read.problems.join('; '));
    const tree = await stepSpanTree(read.db, {
      projectId: read.project.id,
      runId,
      ordinal,
      prices: getRuntime().prices,
    });
    if (!tree) throw new AppError('not_found', 'no such step of this run in this project');
    return tree;
  });
}
