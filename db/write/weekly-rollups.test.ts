// The rollup is maintained by deltas; these tests hold it to a direct aggregation of the runs
// table after every transaction, whatever order runs are saved, re-saved and removed in.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoWeekOfDate } from '../../trajectory/report-weeks';
import type { DatabaseHandle } from '../client';
import { migrateDatabase } from '../migrate';
import { ensureProject } from '../projects';
import { rawRows } from '../test-database';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { saveRuns } from './save-runs';
import type { RunRow } from './save-runs';
import { testRunRow } from './test-run-row';

const at = (iso: string) => Date.parse(iso);
// Instants on both sides of week and year boundaries (2026 has a week 53).
const STARTS = [
  at('2026-11-29T23:59:59.999Z'), // Sunday, 2026-W48
  at('2026-11-30T00:00:00.000Z'), // Monday, 2026-W49
  at('2026-12-31T12:00:00Z'), // 2026-W53
  at('2027-01-03T23:59:59Z'), // 2026-W53
  at('2027-01-04T00:00:00Z'), // 2027-W01
];

const runRow = (id: string, o: Partial<RunRow> = {}): RunRow =>
  testRunRow(id, STARTS[0]!, { exitCategory: 'running', ...o });

/** One version of a run as a derivation could store it, or its removal. */
const version = (id: string) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .record({
          started_at_ms: fc.constantFrom(...STARTS),
          agent: fc.constantFrom('coder', 'crawler', null),
          variant: fc.constantFrom('controlled', 'uncontrolled', null),
          model: fc.constantFrom('gpt-4o', 'claude-sonnet-4', null),
          verified: fc.boolean(),
          verified_units: fc.constantFrom(1, 2, 5, 0.5),
          cost_usd: fc.constantFrom(0, 0.1, 0.2, 0.0125, 1 / 3, 8.000000000000002, 1234.5678),
          wasted_usd: fc.constantFrom(0, 0.05, 0.1),
          first_signal_step: fc.constantFrom(null, 1, 4),
          unpriced: fc.boolean(),
          step_count: fc.integer({ min: 0, max: 40 }),
        })
        .map((v) => ({
          id,
          row: runRow(id, {
            startedAtMs: v.started_at_ms,
            agent: v.agent,
            variant: v.variant,
            model: v.model,
            verification: v.verified ? 'verified' : 'unverified',
            verifiedUnits: v.verified ? v.verified_units : 0,
            costUsd: v.cost_usd,
            wastedUsd: v.wasted_usd,
            firstSignalStep: v.first_signal_step,
            unpricedModels: v.unpriced ? ['mystery-model'] : [],
            stepCount: v.step_count,
          }),
        })),
    },
    { weight: 1, arbitrary: fc.constant({ id, row: null }) },
  );

const IDS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
type Change = { id: string; row: RunRow | null };

describe.each(TEST_DATABASE_KINDS)('weekly rollup on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** Saves one batch in one transaction, as ingest does (ids sorted, each once). */
  const save = (projectId: string, batch: readonly Change[]) =>
    handle.db.transaction(async (tx) => {
      const last = new Map(batch.map((c) => [c.id, c.row]));
      const ids = [...last.keys()].sort();
      const rows = ids.map((id) => last.get(id)).filter((r): r is RunRow => !!r);
      const empty = ids.filter((id) => last.get(id) === null);
      await saveRuns(tx, projectId, rows, [], empty);
    });

  // Written apart from the maintenance code: weeks by to_char's ISO fields, not date_trunc.
  const direct = async (projectId: string) =>
    rawRows(
      handle.db,
      sql`select to_char(started_at at time zone 'UTC', 'IYYY-"W"IW') as week,
            coalesce(agent, '') as agent, coalesce(variant, '') as variant,
            coalesce(model, '') as model, count(*)::int as runs,
            sum(case when verification = 'verified' then 1 else 0 end)::int as verified_runs,
            trim_scale(sum(verified_units::numeric))::text as verified_units,
            trim_scale(sum(cost_usd::numeric))::text as cost_usd,
            trim_scale(sum(wasted_usd::numeric))::text as wasted_usd,
            sum(case when first_signal_step is null then 0 else 1 end)::int as loop_runs,
            sum(case when unpriced_models = '{}' then 0 else 1 end)::int as unpriced_runs,
            sum(step_count)::text as step_count
          from runs where project_id = ${projectId}::uuid
          group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    );
  const rollup = async (projectId: string) =>
    (
      await rawRows(
        handle.db,
        sql`select to_char(week_start, 'YYYY-MM-DD') as week_start, agent, variant, model, runs,
              verified_runs, trim_scale(verified_units)::text as verified_units,
              trim_scale(cost_usd)::text as cost_usd, trim_scale(wasted_usd)::text as wasted_usd,
              loop_runs, unpriced_runs, step_count::text as step_count
            from weekly_rollups where project_id = ${projectId}::uuid
            order by week_start, agent, variant, model`,
      )
    ).map(({ week_start, ...rest }): Record<string, unknown> => ({
      week: isoWeekOfDate(String(week_start)).label,
      ...rest,
    }));

  let projects = 0;
  const newProject = () => ensureProject(handle.db, `rollup-${kind}-${++projects}`);

  it('equals a direct aggregation of runs after every transaction, in any order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom(...IDS).chain(version), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (batches) => {
          const projectId = await newProject();
          for (const batch of batches) {
            await save(projectId, batch);
            expect(await rollup(projectId)).toEqual(await direct(projectId));
          }
        },
      ),
      { numRuns: kind === 'pglite' ? 25 : 40 },
    );
  });

  it('ends identical whatever order the same final versions arrive in, re-sends included', async () => {
    const finals: Change[] = [
      { id: 'a', row: runRow('a', { costUsd: 0.1, verification: 'verified', verifiedUnits: 2 }) },
      { id: 'b', row: runRow('b', { costUsd: 0.2, startedAtMs: STARTS[2], model: 'gpt-4o' }) },
      { id: 'c', row: runRow('c', { costUsd: 1 / 3, startedAtMs: STARTS[4], variant: 'x' }) },
    ];
    // A run first seen in one week and group, then moved by a later derivation (its root
    // arrived with an earlier start and the real agent), and a run that is removed.
    const early: Change[] = [
      { id: 'a', row: runRow('a', { costUsd: 0.05, startedAtMs: STARTS[1], agent: null }) },
      { id: 'b', row: runRow('b', { costUsd: 0.7, startedAtMs: STARTS[3] }) },
      { id: 'gone', row: runRow('gone', { costUsd: 5 }) },
    ];
    const orders: Change[][][] = [
      [early, finals, [{ id: 'gone', row: null }]],
      [[{ id: 'gone', row: null }], finals.slice().reverse(), finals],
      [finals, early, [{ id: 'gone', row: null }], finals],
      [[finals[2]!], [early[0]!, early[2]!], [{ id: 'gone', row: null }], finals, finals],
    ];
    const results = [];
    for (const order of orders) {
      const projectId = await newProject();
      for (const batch of order) await save(projectId, batch);
      expect(await rollup(projectId)).toEqual(await direct(projectId));
      results.push(await rollup(projectId));
    }
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
    expect(results[0]).toEqual([
      expect.objectContaining({ week: '2026-W48', agent: 'coder', runs: 1, cost_usd: '0.1' }),
      expect.objectContaining({ week: '2026-W53', model: 'gpt-4o', cost_usd: '0.2' }),
      expect.objectContaining({ week: '2027-W01', variant: 'x', cost_usd: '0.333333333333333' }),
    ]);
  });

  it('deletes a key when its last run leaves it, and writes nothing for a no-op re-save', async () => {
    const projectId = await newProject();
    const row = runRow('only', { costUsd: 0.5 });
    await save(projectId, [{ id: 'only', row }]);
    const stamp = async () =>
      rawRows(
        handle.db,
        sql`select updated_at::text as at from weekly_rollups where project_id = ${projectId}::uuid`,
      );
    const first = await stamp();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await save(projectId, [{ id: 'only', row }]);
    expect(await stamp()).toEqual(first);
    await save(projectId, [{ id: 'only', row: { ...row, agent: 'other' } }]);
    expect((await rollup(projectId)).map((r) => r.agent)).toEqual(['other']);
    await save(projectId, [{ id: 'only', row: null }]);
    expect(await rollup(projectId)).toEqual([]);
  });

  it('upgrading a database with runs backfills the rollup as ingest would have kept it', async () => {
    const fresh = await createTestDatabase(kind);
    try {
      const projectId = await ensureProject(fresh.db, 'upgrade');
      const runs = IDS.map((id, k) =>
        runRow(id, {
          startedAtMs: STARTS[k % STARTS.length],
          agent: k % 2 ? 'coder' : null,
          costUsd: 0.1 * k,
          verification: k % 3 ? 'verified' : 'unverified',
          verifiedUnits: k % 3 ? k : 0,
          unpricedModels: k === 4 ? ['m'] : [],
          stepCount: k,
          firstSignalStep: k % 2 ? null : 3,
          wastedUsd: k % 2 ? 0 : 0.05,
        }),
      );
      await fresh.db.transaction((tx) => saveRuns(tx, projectId, runs, [], []));
      const read = () =>
        rawRows(
          fresh.db,
          sql`select week_start::text as week_start, agent, variant, model, runs, verified_runs,
                trim_scale(verified_units)::text as verified_units,
                trim_scale(cost_usd)::text as cost_usd, unpriced_runs, step_count::text as steps,
                trim_scale(wasted_usd)::text as wasted_usd, loop_runs
              from weekly_rollups order by 1, 2, 3, 4`,
        );
      const maintained = await read();
      expect(maintained.length).toBeGreaterThan(1);
      expect(maintained.reduce((n, r) => n + Number(r.loop_runs), 0)).toBe(3);
      // Back to the schema before 0001_weekly_rollups, with the runs in place; then start.
      // (0001 and every migration after it: their tables go, their records go.)
      await fresh.db.execute(sql`drop table weekly_rollups`);
      await fresh.db.execute(sql`drop table dirty_runs`);
      await fresh.db.execute(sql`drop index runs_window_idx`);
      await fresh.db.execute(sql`drop table run_rollups, run_category_rollups, run_agent_rollups`);
      await fresh.db.execute(sql`drop table pattern_rollups, run_patterns`);
      await fresh.db.execute(sql`drop type rollup_grain`);
      await fresh.db.execute(
        sql`drop index runs_cost_idx, runs_wasted_idx, runs_steps_idx, runs_duration_idx`,
      );
      await fresh.db.execute(sql`delete from drizzle.__drizzle_migrations
        where id > (select min(id) from drizzle.__drizzle_migrations)`);
      await migrateDatabase(fresh);
      expect(await read()).toEqual(maintained);
    } finally {
      await fresh.close();
    }
  });

  it.runIf(kind === 'postgres')(
    'concurrent transactions sharing rollup keys neither deadlock nor lose a delta',
    async () => {
      const projectId = await newProject();
      const agents = ['a', 'b', 'c', 'd'];
      // 24 transactions, each saving its own runs across the same keys in a different order.
      const work = Array.from({ length: 24 }, (_, t) =>
        save(
          projectId,
          agents
            .map((agent, k) => ({
              id: `t${t}-${k}`,
              row: runRow(`t${t}-${k}`, {
                agent: agents[(k + t) % agents.length]!,
                startedAtMs: STARTS[(t + k) % 2],
                costUsd: 0.01 * (t + 1),
              }),
            }))
            .reverse(),
        ),
      );
      await Promise.all(work);
      const rows = await rollup(projectId);
      expect(rows).toEqual(await direct(projectId));
      expect(rows.reduce((sum, r) => sum + Number(r.runs), 0)).toBe(96);
    },
  );
});
