// A run whose root never arrives and whose spans stopped coming has been abandoned: after the
// idle timeout it ends as `unknown` (it named no reason), derived like any other run.
import type { Database } from '../db/client';
import { findIdleRuns } from '../db/write/idle-runs';
import { deriveRuns } from './derive-runs';
import type { DeriveContext } from './derive-runs';

export async function endIdleRuns(db: Database, context: DeriveContext): Promise<number> {
  const idle = await findIdleRuns(db, context.settings.idleTimeoutMs);
  const byProject = new Map<string, string[]>();
  for (const { projectId, runId } of idle)
    byProject.set(projectId, [...(byProject.get(projectId) ?? []), runId]);
  for (const [projectId, runIds] of byProject) {
    await db.transaction((tx) => deriveRuns(tx, projectId, runIds, context, { idle: true }));
  }
  return idle.length;
}
