// One step's span tree (the step's span and every span below it, capped) for the trajectory
// view, loaded when the step is opened: the dashboard's own JSON, scoped like the page.
import { stepSpanTree } from '@/db/read/span-tree';
import { AppError } from '@/lib/app-error';
import { getRuntime } from '@/server/runtime';
import { respond } from '@/app/http';
import { readRunJson, spanTreeLimit, stepOrdinal } from '../../../run-json-read';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string; ordinal: string }> },
): Promise<Response> {
  return respond(async () => {
    const ordinal = await stepOrdinal(params);
    const { db, projectId, runId } = await readRunJson(request, params);
    const tree = await stepSpanTree(db, {
      projectId,
      runId,
      ordinal,
      prices: getRuntime().prices,
      limit: spanTreeLimit(request),
    });
    if (!tree) throw new AppError('not_found', 'no such step of this run in this project');
    return tree;
  });
}
