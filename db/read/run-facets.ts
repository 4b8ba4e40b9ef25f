// The agents and variants of a window, most runs first, for the dashboard's filter menus.
import { and, desc, isNotNull, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { runScope } from './run-filters';
import type { RunScope } from './run-filters';

export interface FacetValue {
  value: string;
  runs: number;
}

export interface RunFacets {
  agents: FacetValue[];
  variants: FacetValue[];
}

const row = z.object({ value: z.string(), runs: z.coerce.number() });

/** Variants are those of the chosen agent, when one is chosen; agents ignore the chosen agent. */
export async function runFacets(
  db: Executor,
  scope: Pick<RunScope, 'projectId' | 'window' | 'agent'>,
  limit = 100,
): Promise<RunFacets> {
  const base = { projectId: scope.projectId, window: scope.window };
  const [agents, variants] = await Promise.all([
    facet(db, runs.agent, runScope(base), limit),
    facet(db, runs.variant, runScope({ ...base, agent: scope.agent }), limit),
  ]);
  return { agents, variants };
}

async function facet(
  db: Executor,
  column: typeof runs.agent | typeof runs.variant,
  where: SQL,
  limit: number,
): Promise<FacetValue[]> {
  const count = sql<number>`count(*)::int`;
  const rows = await db
    .select({ value: column, runs: count })
    .from(runs)
    .where(and(where, isNotNull(column)))
    .groupBy(column)
    .orderBy(desc(count), column)
    .limit(limit);
  return rows.map((r) => row.parse(r));
}
