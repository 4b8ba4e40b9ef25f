// Runs per agent and variant in a window (from the agent rollup, like the facets): what the
// compare page needs to default to an agent that has two variants to compare.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AgentVariantRuns } from '../../trajectory/report-compare-defaults';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { windowRuns } from './window-runs';
import type { WindowScope } from './window-runs';

const row = z.object({ agent: z.string(), variant: z.string(), runs: z.coerce.number() });

export async function agentVariantRuns(
  db: Executor,
  scope: Pick<WindowScope, 'projectId' | 'window'>,
): Promise<AgentVariantRuns[]> {
  const rows = await queryRows(
    db,
    sql`select agent, variant, sum(runs)::int as runs
        from ${windowRuns(scope, { key: 'agent', coarsest: 'day' })} w
        where variant <> ''
        group by agent, variant
        order by 3 desc, 1, 2`,
    row,
  );
  // '' is the rollup's "no agent".
  return rows.map((r) => ({ ...r, agent: r.agent === '' ? null : r.agent }));
}
