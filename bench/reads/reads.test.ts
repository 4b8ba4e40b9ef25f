// The read benchmark in miniature, so it cannot rot: the fill is consistent (runs agree with
// their steps, every rollup with a direct aggregation of the runs) and a quick run on both
// databases reports every read with a ratio. Never how fast anything is: `npm run bench` does.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rawRows } from '../../db/test-database';
import { benchOptions } from '../shared/report';
import { FIXED_WORD, FIXED_WORD_RUNS_PER_DAY, PROBE_RUN_ID } from './dataset';
import { fillDataset, openBenchDatabase } from './fill';
import { run } from './index';

describe.each(['postgres', 'pglite'] as const)('read bench fill on %s', (kind) => {
  it('copies runs that agree with their steps, and rollups that agree with the runs', async () => {
    const bench = await openBenchDatabase(kind);
    try {
      const now = Date.parse('2026-11-30T10:17:23.456Z');
      const fill = await fillDataset(bench, {
        steps: 3_000,
        endMs: now,
        spanDays: 3,
        seed: 3,
        probeSteps: 200,
      });
      expect(fill.steps).toBe(3_000);
      const db = bench.handle.db;
      const one = async (query: ReturnType<typeof sql>) => (await rawRows(db, query))[0]!;
      expect(
        await one(sql`select count(*)::int as runs, sum(step_count)::int as steps,
          min(started_at) >= ${new Date(now - 3 * 86_400_000).toISOString()}::timestamptz
            and max(started_at) < ${new Date(now).toISOString()}::timestamptz as inside
          from runs`),
      ).toEqual({ runs: fill.runs, steps: 3_000, inside: true });
      expect(
        await one(sql`select count(*)::int as n from runs r
          where r.step_count <> (select count(*) from steps s where s.run_id = r.id)
             or abs(r.cost_usd - (select sum(cost_usd) from steps s where s.run_id = r.id)) > 1e-9`),
      ).toEqual({ n: 0 });
      // The search bench's fixed word: in the same number of runs whatever the size.
      expect(
        await one(
          sql`select count(*)::int as n from runs where search_text ilike ${`%${FIXED_WORD}%`}`,
        ),
      ).toEqual({ n: FIXED_WORD_RUNS_PER_DAY * 3 });
      expect(await one(sql`select step_count from runs where id = ${PROBE_RUN_ID}`)).toEqual({
        step_count: 200,
      });
      const mismatches = await rawRows(
        db,
        sql`with direct as (
              select date_trunc('day', started_at, 'UTC') as day, exit_category,
                coalesce(agent, '') as agent, coalesce(variant, '') as variant,
                count(*)::int as runs, sum(cost_usd::numeric) as cost
              from runs group by 1, 2, 3, 4)
            select * from direct d full join (select * from run_rollups where grain = 'day') r
              on r.bucket = d.day and r.exit_category = d.exit_category and r.agent = d.agent
                and r.variant = d.variant
            where r.runs is distinct from d.runs or r.cost_usd is distinct from d.cost`,
      );
      expect(mismatches).toEqual([]);
      expect(
        await one(sql`select (select sum(runs)::int from weekly_rollups) as weekly,
          (select sum(runs)::int from run_category_rollups where grain = 'hour') as hourly,
          (select sum(runs)::int from run_agent_rollups where grain = 'day') as daily`),
      ).toEqual({ weekly: fill.runs, hourly: fill.runs, daily: fill.runs });
      // Every looping run has its repeat and revisit patterns, and their rollup sums them.
      const patterns = await one(sql`select
          (select count(*)::int from runs where repeat_step is not null) as repeats,
          (select count(*)::int from runs where revisit_step is not null) as revisits,
          (select count(*)::int from run_patterns where kind = 'repeat') as repeat_rows,
          (select count(*)::int from run_patterns where kind = 'revisit') as revisit_rows,
          (select count(distinct signature)::int from run_patterns) as signatures,
          (select sum(runs)::int from pattern_rollups where grain = 'day') as rolled,
          (select sum(runs)::int from pattern_totals) as totalled,
          (select count(*)::int from run_patterns) as rows,
          (select sum(wasted_usd)::numeric(20, 9)::text from pattern_rollups where grain = 'hour')
            = (select sum(wasted_usd::numeric)::numeric(20, 9)::text from run_patterns) as wasted`);
      expect(patterns.repeats).toBeGreaterThan(0);
      expect(patterns).toMatchObject({
        repeat_rows: patterns.repeats,
        revisit_rows: patterns.revisits,
        rolled: patterns.rows,
        totalled: patterns.rows,
        wasted: true,
      });
      expect(patterns.signatures).toBeLessThan(patterns.rows as number);
    } finally {
      await bench.close();
    }
  }, 60_000);
});

describe('read bench', () => {
  it('times every read at both sizes on both databases and reports a ratio for each', async () => {
    const options = benchOptions({ quick: true, log: () => {} });
    const section = await run({
      ...options,
      reads: { sizes: [1_000, 4_000], iterations: 2, warmup: 1, probeSteps: 50 },
    });
    expect(section.title).toBe('Reads: 1k vs 4k steps');
    for (const kind of ['postgres', 'pglite']) {
      const ratios = section.rows.filter((r) => r.metric.startsWith(`${kind} `) && r.target);
      expect(ratios.map((r) => r.metric)).toEqual(
        expect.arrayContaining([
          `${kind} exit-reason groups, 30 d: 4k ÷ 1k`,
          `${kind} runs list by costUsd, 7 d, middle page: 4k ÷ 1k`,
          `${kind} trajectory steps (page), 50-step run: 4k ÷ 1k`,
          `${kind} weekly report, 12 weeks by agent: 4k ÷ 1k`,
        ]),
      );
      for (const r of ratios) {
        expect(r.target).toBe('≤ 2');
        expect(typeof r.pass).toBe('boolean');
        expect(Number(r.value)).toBeGreaterThan(0);
      }
    }
    expect(section.notes.some((n) => n.includes('EXPLAIN (ANALYZE, BUFFERS)'))).toBe(true);
  }, 120_000);
});
