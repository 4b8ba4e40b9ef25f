// How many runs started from a moment on, under the home page's agent and variant: the home page
// counts them when it renders and again while it is open, and the difference is its "N new
// runs" (a run that arrives late with an early start counts too). Reads the start index only.
import { count } from 'drizzle-orm';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { runScope } from './run-filters';

export async function countRunsFrom(
  db: Executor,
  scope: { projectId: string; from: Date; agent?: string; variant?: string },
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(runs)
    .where(
      runScope({
        projectId: scope.projectId,
        // The window's start, and no end: runs that start after the page rendered count.
        window: { from: scope.from, to: new Date('9999-12-31T00:00:00Z') },
        agent: scope.agent,
        variant: scope.variant,
      }),
    );
  return Number(row?.n ?? 0);
}
