// A run's whole trace as a span tree (every span of its traces, earliest first, capped), for the
// run page's trace view: runs whose spans form no steps are read this way too.
import { z } from 'zod';
import { runSpanTree } from '@/db/read/span-tree';
import { AppError } from '@/lib/app-error';
import { projectName, runIdProblem } from '@/lib/filters';
import { getRuntime } from '@/server/runtime';
import { respond } from '@/app/http';
import { dashboardRequestRead, schemaParse } from '@/app/read-door';

export const dynamic = 'force-dynamic';

const query = z.object({ project: projectName.optional() });

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string }> },
): Promise<Response> {
  return respond(async () => {
    const { runId } = await params;
    const problem = runIdProblem(runId);
    if (problem) throw new AppError('bad_request', problem);
    const read = await dashboardRequestRead(request, {
      parse: schemaParse(query),
      project: (q: z.infer<typeof query>) => q.project,
      settle: 'nothing',
    });
    if (!read.ok) throw new AppError('bad_request', read.problems.join('; '));
    const tree = await runSpanTree(read.db, {
      projectId: read.project.id,
      runId,
      prices: getRuntime().prices,
    });
    if (!tree) throw new AppError('not_found', 'no such run in this project');
    return tree;
  });
}
