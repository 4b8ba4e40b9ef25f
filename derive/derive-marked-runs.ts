import type { Database } from '../db/client';
import { claimDirtyRuns } from '../db/write/dirty-runs';
import { deriveRuns } from './derive-runs';
import type { DeriveContext } from './derive-runs';

/** Derives up to `limit` due marked runs of any project; returns how many it took. */
export async function deriveMarkedRuns(
  db: Database,
  context: DeriveContext,
  limit = 200,
): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await claimDirtyRuns(tx, limit);
    const byProject = new Map<string, string[]>();
    for (const { projectId, runId } of claimed)
      byProject.set(projectId, [...(byProject.get(projectId) ?? []), runId]);
    for (const [projectId, runIds] of byProject) await deriveRuns(tx, projectId, runIds, context);
    return claimed.length;
  });
}
