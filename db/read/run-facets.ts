// The agents and variants of a window, most runs first, for the dashboard's filter menus.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { windowRuns } from './window-runs';
import type { WindowScope } from './window-runs';

export interface FacetValue {
  value: string;
  runs: number;
}

export interface RunFacets {
  agents: FacetValue[];
  variants: FacetValue[];
}

const row = z.object({ value: z.string(), runs: z.coerce.number() });

/**
 * Variants are those of the chosen agent, when one is chosen; agents ignore the chosen agent.
 * Both count only runs of the chosen exit category and loop signal, like the rest of the page.
 */
export async function runFacets(
  db: Executor,
  scope: Pick<WindowScope, 'projectId' | 'window' | 'agent' | 'exitCategory' | 'flag'>,
  limit = 100,
): Promise<RunFacets> {
  const base = {
    projectId: scope.projectId,
    window: scope.window,
    exitCategory: scope.exitCategory,
    flag: scope.flag,
  };
  const [agents, variants] = await Promise.all([
    facet(db, 'agent', base, limit),
    facet(db, 'variant', { ...base, agent: scope.agent }, limit),
  ]);
  return { agents, variants };
}

async function facet(
  db: Executor,
  column: 'agent' | 'variant',
  scope: WindowScope,
  limit: number,
): Promise<FacetValue[]> {
  const name = sql.raw(column);
  // '' is the rollup's "none": runs without the name are not a choice.
  const rows = await queryRows(
    db,
    sql`select ${name} as value, sum(runs)::int as runs
        from ${windowRuns(scope, { key: scope.exitCategory === undefined ? 'agent' : 'full', coarsest: 'day' })} w
        where ${name} <> ''
        group by ${name}
        order by 2 desc, ${name}
        limit ${limit}`,
    row,
  );
  return rows;
}
