import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';

/**
 * Locks runs for the rest of the transaction, in the order given (callers sort, so two
 * transactions never wait on each other in a cycle): derivations of one run follow one another,
 * and each sees the spans the one before it committed.
 */
export async function lockRuns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<void> {
  for (const runId of runIds) {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${projectId}:${runId}`}, 0))`,
    );
  }
}
