import { and, sql } from 'drizzle-orm';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { runScope } from './run-filters';
import type { RunScope } from './run-filters';

/** How many traces in the scope are lone LLM or tool calls that could not be grouped into runs. */
export async function countFragments(db: Executor, scope: RunScope): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(runScope(scope), sql`${runs.fragment}`));
  return Number(row?.n ?? 0);
}
