import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';

/**
 * Holds start-up's seeding (prices, keys) for the rest of the transaction: servers that start
 * together on one database take turns, and the later ones find what the first one stored.
 */
export async function lockStartUpSeeding(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('loopscope:boot', 0))`);
}
