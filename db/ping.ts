import { sql } from 'drizzle-orm';
import type { Executor } from './sql';

/** Whether the database answers at all (for health checks). */
export async function ping(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}
