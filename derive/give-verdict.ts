// A person's verdict on a run (or its withdrawal), and the run derived again with it in the same
// transaction: its row, fabricated success, wasted spend and every rollup change together, so
// every list, report and rollup reflects the verdict as soon as the answer is sent.
import type { Database } from '../db/client';
import { removeVerdict, saveVerdict } from '../db/write/run-verdicts';
import type { GivenVerdict } from '../db/write/run-verdicts';
import { deriveRuns } from './derive-runs';
import type { DeriveContext } from './derive-runs';
import { withConflictRetry } from '../db/errors';

export async function giveVerdict(
  db: Database,
  context: DeriveContext,
  projectId: string,
  runId: string,
  given: GivenVerdict | null,
): Promise<void> {
  await withConflictRetry(() =>
    db.transaction(async (tx) => {
      if (given) await saveVerdict(tx, projectId, runId, given);
      else await removeVerdict(tx, projectId, runId);
      await deriveRuns(tx, projectId, [runId], context);
    }),
  );
}
