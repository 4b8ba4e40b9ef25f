// How far a run has got, for its open page's poll: its step count and whether it has ended.
import { and, eq } from 'drizzle-orm';
import { runs } from '../schema';
import type { Executor } from '../sql';

export interface RunProgress {
  stepCount: number;
  endedAt: string | null;
}

export async function runProgress(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<RunProgress | null> {
  const [row] = await db
    .select({ stepCount: runs.stepCount, endedAt: runs.endedAt })
    .from(runs)
    .where(and(eq(runs.projectId, projectId), eq(runs.id, runId)));
  return row ? { stepCount: row.stepCount, endedAt: row.endedAt?.toISOString() ?? null } : null;
}
