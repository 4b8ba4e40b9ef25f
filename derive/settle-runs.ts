import type { Database } from '../db/client';
import { withConflictRetry } from '../db/errors';
import { claimProjectRuns } from '../db/write/dirty-runs';
import { deriveRuns } from './derive-runs';
import type { DeriveContext } from './derive-runs';

/**
 * Brings a project's runs (or one run) up to date before a read, so the answer includes every
 * span committed before it. Bounded: past `limit` marked runs the rest is left to the deriver,
 * and the read sees them as of their last derivation. A run that fails is quarantined, never
 * the read's failure.
 */
export async function settleRuns(
  db: Database,
  context: DeriveContext,
  projectId: string,
  options: { runId?: string; limit?: number } = {},
): Promise<void> {
  // A derivation that met another transaction (the deriver, ingest) is done again, marks intact.
  await withConflictRetry(() =>
    db.transaction(async (tx) => {
      const runIds = await claimProjectRuns(tx, projectId, {
        runId: options.runId,
        limit: options.limit ?? 500,
      });
      if (runIds.length > 0) await deriveRuns(tx, projectId, runIds, context);
    }),
  );
}
