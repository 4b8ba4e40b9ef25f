// The hourly and daily run rollups are maintained by deltas; these tests hold every table at
// both grains to a direct aggregation of the runs table after every transaction, whatever order
// runs are saved, re-saved and removed in, and whatever the session's time zone.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import journal from '../migrations/meta/_journal.json';
import { migrateDatabase } from '../migrate';
import { ensureProject } from '../projects';
import { rawRows } from '../test-database';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { RUN_ROLLUP_TARGETS } from './run-rollups';

// Each rollup table and its key columns after project, grain and bucket.
const ROLLUP_TABLES = RUN_ROLLUP_TARGETS.map((t) => ({
  name: t.table,
  columns: t.keys.slice(2).map((k) => k.name),
}));
import { saveRuns } from './save-runs';
import type { RunRow } from './save-runs';
import { storedAndRecomputedRollups } from './test-rollups';
import { testRunRow } from './test-run-row';

const at = (iso: string) => Date.parse(iso);
// Instants on both sides of hour and day boundaries (UTC).
const STARTS = [
  at('2026-11-29T23:59:59.999Z'),
  at('2026-11-30T00:00:00.000Z'),
  at('2026-11-30T00:59:59.999Z'),
  at('2026-11-30T01:00:00.000Z'),
  at('2026-11-30T13:30:00.000Z'),
];

const runRow = (id: string, o: Partial<RunRow> = {}): RunRow => testRunRow(id, STARTS[0]!, o);

/** One version of a run as a derivation could store it, or its removal. */
const version = (id: string) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .record({
          started_at_ms: fc.constantFrom(...STARTS),
          exit_category: fc.constantFrom('goal_satisfied', 'no_progress', 'running'),
          agent: fc.constantFrom('coder', 'crawler', null),
          variant: fc.constantFrom('controlled', 'uncontrolled', null),
          cost_usd: fc.constantFrom(0, 0.1, 0.2, 0.0125, 1 / 3, 8.000000000000002, 1234.5678),
          // A loop signal with the spend from it on, or none; verified units as a verdict sets them.
          loop: fc.constantFrom(
            { firstSignalStep: null, wastedUsd: 0 },
            { firstSignalStep: 3, wastedUsd: 0.05 },
            { firstSignalStep: 1, wastedUsd: 1 / 3 },
            { firstSignalStep: 7, wastedUsd: 0 },
          ),
          verified_units: fc.constantFrom(0, 1, 2.5),
        })
        .map(({ loop, verified_units, ...v }) => ({
          id,
          row: runRow(id, { ...v, ...loop, verifiedUnits: verified_units }),
        })),
    },
    { weight: 1, arbitrary: fc.constant({ id, row: null }) },
  );

const IDS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
type Change = { id: string; row: RunRow | null };
const FORMAT = { hour: 'YYYY-MM-DD HH24', day: 'YYYY-MM-DD' } as const;

describe.each(TEST_DATABASE_KINDS)('hourly and daily run rollups on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** Saves one batch in one transaction, as ingest does (ids sorted, each once). */
  const save = (projectId: string, batch: readonly Change[], timeZone = 'UTC') =>
    handle.db.transaction(async (tx) => {
      // The keys are UTC hours and days whatever the session's zone (Kolkata is +05:30).
      await tx.execute(sql.raw(`set local time zone '${timeZone}'`));
      const last = new Map(batch.map((c) => [c.id, c.row]));
      const ids = [...last.keys()].sort();
      const rows = ids.map((id) => last.get(id)).filter((r): r is RunRow => !!r);
      const empty = ids.filter((id) => last.get(id) === null);
      await saveRuns(tx, projectId, rows, [], empty);
    });

  // Written apart from the maintenance code: buckets by to_char of the UTC time, not date_trunc.
  const direct = async (projectId: string, grain: 'hour' | 'day', columns: string[]) => {
    const keys = columns.map((c) => (c === 'exit_category' ? `${c}::text` : `coalesce(${c}, '')`));
    return rawRows(
      handle.db,
      sql`select to_char(started_at at time zone 'UTC', ${FORMAT[grain]}) as bucket,
            ${sql.raw(keys.map((k, i) => `${k} as k${i}`).join(', '))},
            count(*)::int as runs, trim_scale(sum(cost_usd::numeric))::text as cost_usd,
            trim_scale(sum(wasted_usd::numeric))::text as wasted_usd,
            sum(case when first_signal_step is null then 0 else 1 end)::int as loop_runs,
            trim_scale(sum(verified_units::numeric))::text as verified_units
          from runs where project_id = ${projectId}::uuid
          group by ${sql.raw(['1', ...keys.map((_, i) => String(i + 2))].join(', '))}
          order by ${sql.raw(['1', ...keys.map((_, i) => String(i + 2))].join(', '))}`,
    );
  };
  const rollup = async (
    projectId: string,
    table: string,
    grain: string,
    columns: string[],
    db = handle.db,
  ) =>
    rawRows(
      db,
      sql`select to_char(bucket at time zone 'UTC', ${FORMAT[grain as 'hour']}) as bucket,
            ${sql.raw(columns.map((c, i) => `${c === 'exit_category' ? `${c}::text` : c} as k${i}`).join(', '))},
            runs, trim_scale(cost_usd)::text as cost_usd,
            trim_scale(wasted_usd)::text as wasted_usd, loop_runs,
            trim_scale(verified_units)::text as verified_units
          from ${sql.raw(table)} where project_id = ${projectId}::uuid and grain = ${grain}::rollup_grain
          order by ${sql.raw(['1', ...columns.map((_, i) => String(i + 2))].join(', '))}`,
    );
  const expectMatches = async (projectId: string) => {
    for (const table of ROLLUP_TABLES) {
      for (const grain of ['hour', 'day'] as const) {
        expect(await rollup(projectId, table.name, grain, table.columns)).toEqual(
          await direct(projectId, grain, table.columns),
        );
      }
    }
  };

  let projects = 0;
  const newProject = () => ensureProject(handle.db, `run-rollup-${kind}-${++projects}`);

  it('equals a direct aggregation of runs after every transaction, in any order and zone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            changes: fc.array(fc.constantFrom(...IDS).chain(version), {
              minLength: 1,
              maxLength: 4,
            }),
            zone: fc.constantFrom('UTC', 'Asia/Kolkata', 'America/St_Johns'),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (batches) => {
          const projectId = await newProject();
          for (const { changes, zone } of batches) {
            await save(projectId, changes, zone);
            await expectMatches(projectId);
          }
        },
      ),
      { numRuns: kind === 'pglite' ? 20 : 30 },
    );
  });

  it('ends identical whatever order the same final versions arrive in, re-sends included', async () => {
    const finals: Change[] = [
      { id: 'a', row: runRow('a', { costUsd: 0.1 }) },
      { id: 'b', row: runRow('b', { costUsd: 0.2, startedAtMs: STARTS[2], variant: 'x' }) },
      { id: 'c', row: runRow('c', { costUsd: 1 / 3, startedAtMs: STARTS[4], agent: null }) },
    ];
    // Runs first seen in one hour and group, then moved by a later derivation, and one removed.
    const early: Change[] = [
      { id: 'a', row: runRow('a', { costUsd: 0.05, startedAtMs: STARTS[1], agent: null }) },
      { id: 'b', row: runRow('b', { exitCategory: 'running', startedAtMs: STARTS[3] }) },
      { id: 'gone', row: runRow('gone', { costUsd: 5 }) },
    ];
    const orders: Change[][][] = [
      [early, finals, [{ id: 'gone', row: null }]],
      [[{ id: 'gone', row: null }], finals.slice().reverse(), finals],
      [finals, early, [{ id: 'gone', row: null }], finals],
    ];
    const results = [];
    for (const order of orders) {
      const projectId = await newProject();
      for (const batch of order) await save(projectId, batch);
      await expectMatches(projectId);
      results.push(await rollup(projectId, 'run_rollups', 'day', ROLLUP_TABLES[0]!.columns));
    }
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
    const quiet = { wasted_usd: '0', loop_runs: 0, verified_units: '0' };
    expect(results[0]).toEqual([
      {
        bucket: '2026-11-29',
        k0: 'goal_satisfied',
        k1: 'coder',
        k2: '',
        runs: 1,
        cost_usd: '0.1',
        ...quiet,
      },
      {
        bucket: '2026-11-30',
        k0: 'goal_satisfied',
        k1: '',
        k2: '',
        runs: 1,
        cost_usd: '0.333333333333333',
        ...quiet,
      },
      {
        bucket: '2026-11-30',
        k0: 'goal_satisfied',
        k1: 'coder',
        k2: 'x',
        runs: 1,
        cost_usd: '0.2',
        ...quiet,
      },
    ]);
  });

  it('deletes keys their last run leaves, and writes nothing for a no-op re-save', async () => {
    const projectId = await newProject();
    const row = runRow('only', { costUsd: 0.5 });
    await save(projectId, [{ id: 'only', row }]);
    const stamps = async () =>
      rawRows(
        handle.db,
        sql`select updated_at::text as at from run_rollups where project_id = ${projectId}::uuid
            union all select updated_at::text from run_category_rollups
              where project_id = ${projectId}::uuid
            union all select updated_at::text from run_agent_rollups
              where project_id = ${projectId}::uuid`,
      );
    const first = await stamps();
    expect(first).toHaveLength(6);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await save(projectId, [{ id: 'only', row }]);
    expect(await stamps()).toEqual(first);
    // Another hour of the same day: the day rows keep their keys, the hour rows move.
    await save(projectId, [{ id: 'only', row: { ...row, startedAtMs: STARTS[0]! - 3600_000 } }]);
    await expectMatches(projectId);
    await save(projectId, [{ id: 'only', row: null }]);
    expect(await stamps()).toEqual([]);
  });

  it('upgrading a database with runs backfills the rollups as ingest would have kept them', async () => {
    const fresh = await createTestDatabase(kind);
    try {
      const projectId = await ensureProject(fresh.db, 'upgrade');
      const runs = IDS.map((id, k) =>
        runRow(id, {
          startedAtMs: STARTS[k % STARTS.length],
          agent: k % 2 ? 'coder' : null,
          variant: k % 3 ? 'v1' : null,
          exitCategory: k % 2 ? 'goal_satisfied' : 'no_progress',
          costUsd: 0.1 * k,
          firstSignalStep: k % 3 === 1 ? 2 : null,
          wastedUsd: k % 3 === 1 ? 0.05 * k : 0,
          verifiedUnits: k % 2 ? k : 0,
        }),
      );
      await fresh.db.transaction((tx) => saveRuns(tx, projectId, runs, [], []));
      const read = async () => {
        const out: Record<string, unknown>[][] = [];
        for (const table of ROLLUP_TABLES) {
          for (const grain of ['hour', 'day']) {
            out.push(await rollup(projectId, table.name, grain, table.columns, fresh.db));
          }
        }
        return out;
      };
      const maintained = await read();
      expect(maintained.flat().length).toBeGreaterThan(6);
      // Back to the schema before 0003_run_rollups, with the runs in place; then start.
      // (0003 and every migration after it: what they made goes, their records go.)
      await fresh.db.execute(sql`drop table run_rollups, run_category_rollups, run_agent_rollups`);
      await fresh.db.execute(sql`drop table pattern_rollups, run_patterns`);
      await fresh.db.execute(sql`drop type rollup_grain`);
      await fresh.db.execute(
        sql`drop index runs_cost_idx, runs_wasted_idx, runs_steps_idx, runs_duration_idx`,
      );
      const since = journal.entries.find((e) => e.tag.startsWith('0003_'))!.when;
      await fresh.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at >= ${since}`,
      );
      await migrateDatabase(fresh);
      expect(await read()).toEqual(maintained);
    } finally {
      await fresh.close();
    }
  });

  it('upgrading from before the loop measures fills them in every rollup as ingest keeps them', async () => {
    const fresh = await createTestDatabase(kind);
    try {
      const projectId = await ensureProject(fresh.db, 'upgrade-loops');
      const runs = IDS.map((id, k) =>
        runRow(id, {
          startedAtMs: STARTS[k % STARTS.length],
          agent: k % 2 ? 'coder' : null,
          exitCategory: k % 2 ? 'goal_satisfied' : 'no_progress',
          costUsd: 0.1 * k,
          firstSignalStep: k % 2 ? null : 4,
          wastedUsd: k % 2 ? 0 : 0.0125 * (k + 1),
          verifiedUnits: k % 2 ? 2 : 0,
        }),
      );
      await fresh.db.transaction((tx) => saveRuns(tx, projectId, runs, [], []));
      const maintained = await storedAndRecomputedRollups(fresh.db, projectId);
      expect(maintained.stored).toEqual(maintained.recomputed);
      const measures = `wasted_usd, loop_runs, verified_units`;
      for (const table of ['run_rollups', 'run_category_rollups', 'run_agent_rollups']) {
        await fresh.db.execute(
          sql.raw(
            `alter table ${table} ${measures
              .split(', ')
              .map((c) => `drop column ${c}`)
              .join(', ')}`,
          ),
        );
      }
      await fresh.db.execute(sql`alter table weekly_rollups drop column loop_runs`);
      const since = journal.entries.find((e) => e.tag.endsWith('_rollup_loop_measures'))!.when;
      await fresh.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at >= ${since}`,
      );
      await migrateDatabase(fresh);
      const upgraded = await storedAndRecomputedRollups(fresh.db, projectId);
      expect(upgraded.stored).toEqual(maintained.stored);
      const [sums] = await rawRows(
        fresh.db,
        sql`select sum(loop_runs)::int as loops, trim_scale(sum(wasted_usd))::text as wasted,
              trim_scale(sum(verified_units))::text as units
            from run_category_rollups where project_id = ${projectId}::uuid and grain = 'day'`,
      );
      expect(sums).toEqual({ loops: 3, wasted: '0.1125', units: '6' });
      const [weekly] = await rawRows(
        fresh.db,
        sql`select sum(loop_runs)::int as loops from weekly_rollups
            where project_id = ${projectId}::uuid`,
      );
      expect(weekly?.loops).toBe(3);
    } finally {
      await fresh.close();
    }
  });

  it.runIf(kind === 'postgres')(
    'concurrent transactions sharing rollup keys neither deadlock nor lose a delta',
    async () => {
      const projectId = await newProject();
      const agents = ['a', 'b', 'c', 'd'];
      const work = Array.from({ length: 24 }, (_, t) =>
        save(
          projectId,
          agents
            .map((agent, k) => ({
              id: `t${t}-${k}`,
              row: runRow(`t${t}-${k}`, {
                agent: agents[(k + t) % agents.length]!,
                startedAtMs: STARTS[(t + k) % 3],
                costUsd: 0.01 * (t + 1),
              }),
            }))
            .reverse(),
        ),
      );
      await Promise.all(work);
      await expectMatches(projectId);
      const [total] = await rawRows(
        handle.db,
        sql`select sum(runs)::int as n from run_category_rollups
            where project_id = ${projectId}::uuid and grain = 'day'`,
      );
      expect(total?.n).toBe(96);
    },
  );
});
