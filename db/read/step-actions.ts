import { and, desc, eq, inArray } from 'drizzle-orm';
import { steps } from '../schema';
import type { Executor } from '../sql';

/** The action of each given step number of a run (for evidence lines), without loading the run. */
export async function stepActions(
  db: Executor,
  { projectId, runId, indices }: { projectId: string; runId: string; indices: number[] },
): Promise<Map<number, string | null>> {
  if (indices.length === 0) return new Map();
  const rows = await db
    .select({ index: steps.index, action: steps.action })
    .from(steps)
    .where(
      and(eq(steps.projectId, projectId), eq(steps.runId, runId), inArray(steps.index, indices)),
    );
  return new Map(rows.map((r) => [r.index, r.action]));
}

/** The number of a run's last step, or null when it has none. */
export async function lastStepIndex(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<number | null> {
  const [row] = await db
    .select({ index: steps.index })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(desc(steps.ordinal))
    .limit(1);
  return row?.index ?? null;
}
