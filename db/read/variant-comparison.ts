// Two variants side by side from the runs' summary columns in a window: totals, p50/p95 of cost
// and steps per run (percentile_cont), both distributions binned on one shared layout so the
// bars compare, and how each variant's runs ended.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';
import { histogramLayout } from '../../trajectory/report-metrics';
import type { HistogramLayout } from '../../trajectory/report-metrics';
import type { VariantComparison, VariantStats } from '../../trajectory/report-compare';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { runScope } from './run-filters';

export interface ComparisonQuery {
  projectId: string;
  window: TimeWindow;
  agent?: string;
  a: string;
  b: string;
}

const nullableNumber = z.coerce.number().nullable();
const statsRow = z.object({
  variant: z.string(),
  runs: z.coerce.number(),
  verified_runs: z.coerce.number(),
  verified_units: z.coerce.number(),
  cost_usd: z.coerce.number(),
  wasted_usd: z.coerce.number(),
  unpriced_runs: z.coerce.number(),
  cost_p50: nullableNumber,
  cost_p95: nullableNumber,
  cost_max: nullableNumber,
  steps_p50: nullableNumber,
  steps_p95: nullableNumber,
  steps_max: nullableNumber,
});
const exitRow = z.object({
  variant: z.string(),
  exit_category: z.enum(EXIT_CATEGORIES),
  runs: z.coerce.number(),
});
const binRow = z.object({
  variant: z.string(),
  metric: z.enum(['cost', 'steps']),
  bin: z.coerce.number().int(),
  runs: z.coerce.number(),
});

function scope(q: ComparisonQuery): SQL {
  return runScope({
    projectId: q.projectId,
    window: q.window,
    agent: q.agent,
    variants: [q.a, q.b],
  });
}

export async function compareVariants(
  db: Executor,
  query: ComparisonQuery,
): Promise<VariantComparison> {
  const where = scope(query);
  const stats = await queryRows(
    db,
    sql`select variant, count(*)::int as runs,
            (count(*) filter (where verification = 'verified'))::int as verified_runs,
            coalesce(sum(verified_units), 0)::float8 as verified_units,
            coalesce(sum(cost_usd), 0)::float8 as cost_usd,
            coalesce(sum(wasted_usd), 0)::float8 as wasted_usd,
            (count(*) filter (where cardinality(unpriced_models) > 0))::int as unpriced_runs,
            (percentile_cont(0.5) within group (order by cost_usd))::float8 as cost_p50,
            (percentile_cont(0.95) within group (order by cost_usd))::float8 as cost_p95,
            max(cost_usd)::float8 as cost_max,
            (percentile_cont(0.5) within group (order by step_count))::float8 as steps_p50,
            (percentile_cont(0.95) within group (order by step_count))::float8 as steps_p95,
            max(step_count)::float8 as steps_max
          from runs where ${where}
          group by variant`,
    statsRow,
  );
  const exits = await queryRows(
    db,
    sql`select variant, exit_category::text as exit_category, count(*)::int as runs
          from runs where ${where} group by 1, 2`,
    exitRow,
  );

  const costLayout = histogramLayout(Math.max(0, ...stats.map((s) => s.cost_max ?? 0)));
  const stepLayout = histogramLayout(Math.max(0, ...stats.map((s) => s.steps_max ?? 0)), {
    integer: true,
  });
  // The same bin formula as binOf() in trajectory/report-metrics.ts.
  const bin = (column: SQL, l: HistogramLayout) =>
    sql`least(greatest(floor((${column} - ${l.lo}::float8) / ${l.width}::float8)::int, 0), ${l.bins - 1}::int)`;
  const bins =
    stats.length === 0
      ? []
      : await queryRows(
          db,
          sql`select variant, 'cost' as metric, ${bin(sql`cost_usd`, costLayout)} as bin,
                  count(*)::int as runs
                from runs where ${where} group by 1, 2, 3
                union all
                select variant, 'steps', ${bin(sql`step_count`, stepLayout)}, count(*)::int
                from runs where ${where} group by 1, 2, 3`,
          binRow,
        );

  const side = (variant: string): VariantStats => {
    const s = stats.find((x) => x.variant === variant);
    const histogram = (metric: 'cost' | 'steps', layout: HistogramLayout) => {
      const counts = new Array<number>(layout.bins).fill(0);
      for (const b of bins)
        if (b.variant === variant && b.metric === metric) counts[b.bin] = b.runs;
      return counts;
    };
    return {
      variant,
      runs: s?.runs ?? 0,
      verifiedRuns: s?.verified_runs ?? 0,
      verifiedUnits: s?.verified_units ?? 0,
      costUsd: s?.cost_usd ?? 0,
      wastedUsd: s?.wasted_usd ?? 0,
      unpricedRuns: s?.unpriced_runs ?? 0,
      cost: {
        p50: s?.cost_p50 ?? null,
        p95: s?.cost_p95 ?? null,
        max: s?.cost_max ?? null,
        histogram: histogram('cost', costLayout),
      },
      steps: {
        p50: s?.steps_p50 ?? null,
        p95: s?.steps_p95 ?? null,
        max: s?.steps_max ?? null,
        histogram: histogram('steps', stepLayout),
      },
      exits: exits
        .filter((e) => e.variant === variant)
        .sort(
          (x, y) =>
            EXIT_CATEGORIES.indexOf(x.exit_category) - EXIT_CATEGORIES.indexOf(y.exit_category),
        )
        .map((e) => ({ exitCategory: e.exit_category, runs: e.runs })),
    };
  };
  return { a: side(query.a), b: side(query.b), costLayout, stepLayout };
}
