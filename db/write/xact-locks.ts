// Transaction-level advisory locks on named work: held until the transaction ends.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';

/**
 * Holds start-up's seeding (prices, keys) for the rest of the transaction: servers that start
 * together on one database take turns, and the later ones find what the first one stored.
 */
export async function lockStartUpSeeding(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('loopscope:boot', 0))`);
}

/**
 * Takes the lock named `name` for the rest of the transaction if no other transaction holds it:
 * work one server does at a time (retention, partition upkeep), which the others then skip.
 */
export async function tryNamedXactLock(tx: Executor, name: string): Promise<boolean> {
  const [lock] = await queryRows(
    tx,
    sql`select pg_try_advisory_xact_lock(hashtextextended(${name}, 0)) as held`,
    z.object({ held: column.boolean }),
  );
  return lock?.held === true;
}
