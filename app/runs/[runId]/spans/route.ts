// A run's whole trace as a span tree (every span of its traces, earliest first, capped), for the
// run page's trace view: runs whose spans form no steps are read this way too.
import { runSpanTree } from '@/db/read/span-tree';
import { AppError } from '@/lib/app-error';
import { getRuntime } from '@/server/runtime';
import { respond } from '@/app/http';
import { readRunJson, spanTreeLimit } from '../run-json-read';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string }> },
): Promise<Response> {
  return respond(async () => {
    const { db, projectId, runId } = await readRunJson(request, params);
    const tree = await runSpanTree(db, {
      projectId,
      runId,
      prices: getRuntime().prices,
      limit: spanTreeLimit(request),
    });
    if (!tree) throw new AppError('not_found', 'no such run in this project');
    return tree;
  });
}
