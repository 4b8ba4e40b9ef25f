// "Compare with the last good run": the latest verified run of the same agent with the same goal
// that started before this one (docs/api.md). An agent or goal that is absent matches absent.
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { RunDetail } from '../../lib/api-types';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { toRunDetail } from './run-summary';

export async function baselineRun(
  db: Executor,
  projectId: string,
  run: Pick<RunDetail, 'id' | 'agent' | 'goal' | 'startedAt'>,
): Promise<RunDetail | null> {
  const startedAt = new Date(run.startedAt);
  const [row] = await db
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.projectId, projectId),
        run.agent === null ? isNull(runs.agent) : eq(runs.agent, run.agent),
        run.goal === null ? isNull(runs.goal) : eq(runs.goal, run.goal),
        eq(runs.verification, 'verified'),
        eq(runs.fragment, false),
        // Started before this one; of two that started in the same millisecond, id decides.
        or(lt(runs.startedAt, startedAt), and(eq(runs.startedAt, startedAt), lt(runs.id, run.id))),
      ),
    )
    .orderBy(desc(runs.startedAt), desc(runs.id))
    .limit(1);
  return row ? toRunDetail(row) : null;
}
