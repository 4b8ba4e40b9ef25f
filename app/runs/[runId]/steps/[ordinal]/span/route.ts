// One step's span for the trajectory view (the page ships no raw attributes), asked on every
// j/k press: the dashboard's own JSON, scoped to the project the page shows.
import { stepSpan } from '@/db/read/step-span';
import { AppError } from '@/lib/app-error';
import { respond } from '@/app/http';
import { readRunJson, stepOrdinal } from '../../../run-json-read';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ runId: string; ordinal: string }> },
): Promise<Response> {
  return respond(async () => {
    const ordinal = await stepOrdinal(params);
    const { db, projectId, runId } = await readRunJson(request, params);
    const step = await stepSpan(db, { projectId, runId, ordinal });
    if (!step) throw new AppError('not_found', 'no such step of this run in this project');
    return step;
  });
}
