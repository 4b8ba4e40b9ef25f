import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asPgArray } from '../sql';

/**
 * Locks runs for the rest of the transaction, in the order given (callers sort, so two
 * transactions never wait on each other in a cycle): derivations of one run follow one another,
 * and each sees the spans the one before it committed. One statement for all of them: a batch of
 * 200 runs was 200 round trips, each as slow as the busy server's event loop.
 */
export async function lockRuns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<void> {
  if (runIds.length === 0) return;
  // unnest yields the array in order and each row's lock is taken as the row is produced: the
  // same order as one statement per run.
  await tx.execute(sql`
    select count(pg_advisory_xact_lock(hashtextextended(${`${projectId}:`} || r.id, 0)))
    from unnest(${asPgArray([...runIds])}::text[]) as r(id)`);
}
