// The WHERE clause every run list and aggregate shares: project, time window, agent, variant.
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { RunFlag, TimeWindow } from '../../lib/filters';
import type { ExitCategory } from '../../trajectory/exit-categories';
import { runs } from '../schema';

export interface RunScope {
  projectId: string;
  window: TimeWindow;
  agent?: string;
  variant?: string;
  exitCategory?: ExitCategory;
  flag?: RunFlag;
}

const FLAG_CONDITIONS: Record<RunFlag, SQL> = {
  repeat: sql`${runs.repeatStep} is not null`,
  revisit: sql`${runs.revisitStep} is not null`,
  stall: sql`${runs.stallStep} is not null`,
  toolCircuit: sql`${runs.toolCircuitStep} is not null`,
  fabricatedSuccess: sql`${runs.fabricatedSuccess}`,
  unexplainedStop: sql`${runs.unexplainedStop}`,
  fragment: sql`${runs.fragment}`,
};

export function runScope(scope: RunScope): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(runs.projectId, scope.projectId),
    gte(runs.startedAt, scope.window.from),
    lt(runs.startedAt, scope.window.to),
    scope.agent === undefined ? undefined : eq(runs.agent, scope.agent),
    scope.variant === undefined ? undefined : eq(runs.variant, scope.variant),
    scope.exitCategory === undefined ? undefined : eq(runs.exitCategory, scope.exitCategory),
    scope.flag === undefined ? undefined : FLAG_CONDITIONS[scope.flag],
  ];
  return and(...conditions) as SQL;
}
