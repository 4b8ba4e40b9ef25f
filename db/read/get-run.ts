import { and, eq } from 'drizzle-orm';
import type { RunDetail } from '../../lib/api-types';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { toRunDetail } from './run-summary';

/** One run of the project, or null: another project's run is as absent as a missing one. */
export async function getRun(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<RunDetail | null> {
  const [row] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.projectId, projectId), eq(runs.id, runId)));
  return row ? toRunDetail(row) : null;
}
