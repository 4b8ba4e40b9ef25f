// One loop pattern's runs in a window, newest first: what the patterns page opens.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import type { ExitCategory } from '../../trajectory/exit-categories';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';

export interface PatternRun {
  id: string;
  goal: string | null;
  agent: string | null;
  exitCategory: ExitCategory;
  startedAt: string;
  costUsd: number;
  wastedUsd: number;
  label: string;
}

export async function patternRuns(
  db: Executor,
  scope: { projectId: string; window: TimeWindow; signature: string; limit: number },
): Promise<PatternRun[]> {
  const rows = await queryRows(
    db,
    sql`
    select r.id, r.goal, r.agent, r.exit_category, r.started_at, r.cost_usd, r.wasted_usd, p.label
    from run_patterns p
    join runs r on r.project_id = p.project_id and r.id = p.run_id
    where p.project_id = ${scope.projectId}::uuid and p.signature = ${scope.signature}
      and p.started_at >= ${scope.window.from.toISOString()}::timestamptz
      and p.started_at < ${scope.window.to.toISOString()}::timestamptz
    order by p.started_at desc, p.run_id desc
    limit ${scope.limit}`,
    z.object({
      id: column.text,
      goal: column.textOrNull,
      agent: column.textOrNull,
      exit_category: column.text,
      started_at: column.isoTime,
      cost_usd: column.number,
      wasted_usd: column.number,
      label: column.text,
    }),
  );
  return rows.map((r) => ({
    id: r.id,
    goal: r.goal,
    agent: r.agent,
    exitCategory: r.exit_category as ExitCategory,
    startedAt: r.started_at,
    costUsd: r.cost_usd,
    wastedUsd: r.wasted_usd,
    label: r.label,
  }));
}
