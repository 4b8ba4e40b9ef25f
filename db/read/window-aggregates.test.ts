// The window aggregates read whole days and hours from the rollups and the partial hours at the
// edges from runs; these tests hold them to a direct aggregation of the runs table (what the
// read models did before the rollups) for windows with odd edges, with and without filters —
// an exit category and a loop signal too, so every part of a filtered page counts the runs its
// list shows — and for days of a time zone other than UTC.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunFlag, TimeWindow } from '../../lib/filters';
import type { ExitCategory } from '../../trajectory/exit-categories';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { rawRows } from '../test-database';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { saveRuns } from '../write/save-runs';
import type { RunRow } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { bucketFor, categoriesOverTime } from './categories-over-time';
import { exitReasonGroups } from './exit-reason-groups';
import { runFacets } from './run-facets';
import { windowTotals } from './window-totals';
import { mulberry32 } from '../../lib/mulberry32';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.parse('2026-11-27T00:00:00Z');
const SPAN = 4 * DAY;
const AGENTS = ['coder', 'crawler', 'ops', null];
const VARIANTS = ['a', 'b', null];
const CATEGORIES: ExitCategory[] = [
  'goal_satisfied',
  'no_progress',
  'budget_exhausted',
  'unknown',
  'running',
];
const COSTS = [0, 0.1, 0.2, 0.0125, 1 / 3, 8.000000000000002, 1234.5678, 0.07];

const rand = mulberry32;

/** 400 runs over four days; a quarter start exactly on an hour, some exactly at midnight. */
function runs(): RunRow[] {
  const r = rand(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(r() * items.length)]!;
  return Array.from({ length: 400 }, (_, k) => {
    const raw = BASE + Math.floor(r() * SPAN);
    const started = k % 4 === 0 ? Math.floor(raw / HOUR) * HOUR : k % 25 === 0 ? BASE + DAY : raw;
    return testRunRow(`run-${k}`, started, {
      agent: pick(AGENTS),
      variant: pick(VARIANTS),
      exitCategory: pick(CATEGORIES),
      costUsd: pick(COSTS),
      revisitStep: k % 3 === 0 ? 3 : null,
      repeatStep: k % 5 === 0 ? 2 : null,
      // As derivation stores them: a loop signal's first step and the spend from it on.
      firstSignalStep: k % 3 === 0 ? 3 : k % 5 === 0 ? 2 : null,
      wastedUsd: k % 3 === 0 || k % 5 === 0 ? pick(COSTS) / 2 : 0,
      verifiedUnits: k % 7 === 0 ? pick([1, 2.5, 0.1]) : 0,
    });
  });
}

interface Scope {
  projectId: string;
  window: TimeWindow;
  agent?: string;
  variant?: string;
  exitCategory?: ExitCategory;
  flag?: RunFlag;
}
const FLAG_COLUMNS: Partial<Record<RunFlag, string>> = {
  revisit: 'revisit_step',
  repeat: 'repeat_step',
};

const win = (from: number, to: number): TimeWindow => ({ from: new Date(from), to: new Date(to) });

// Odd edges: inside one hour, across one boundary, exactly aligned, a day and a bit, all of it.
const WINDOWS: TimeWindow[] = [
  win(BASE + 90 * 60_000 + 17, BASE + 100 * 60_000 + 3),
  win(BASE + DAY - 1, BASE + DAY + 1),
  win(BASE + 5 * HOUR, BASE + 9 * HOUR),
  win(BASE + DAY, BASE + 3 * DAY),
  win(BASE + DAY + 7 * 60_000 + 123, BASE + 2 * DAY + 13 * HOUR + 59 * 60_000 + 999),
  win(BASE + 3 * HOUR + 1, BASE + 3 * DAY + 23 * HOUR - 1),
  win(BASE - 30 * DAY, BASE + 400 * DAY),
  win(BASE + 2 * HOUR, BASE + 2 * HOUR),
  win(BASE + 2 * HOUR, BASE + HOUR),
];

describe.each(TEST_DATABASE_KINDS)('window aggregates on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'windows');
    const all = runs();
    // In batches, re-saving some with another start, as re-derivation does.
    for (let k = 0; k < all.length; k += 50) {
      const batch = all.slice(k, k + 50);
      await handle.db.transaction((tx) =>
        saveRuns(
          tx,
          projectId,
          batch.map((r) => ({ ...r, startedAtMs: r.startedAtMs + HOUR, costUsd: 99 })),
          [],
          [],
        ),
      );
      await handle.db.transaction((tx) => saveRuns(tx, projectId, batch, [], []));
    }
    await handle.db.transaction((tx) => saveRuns(tx, projectId, [], [], ['run-7', 'run-8']));
  });
  afterAll(async () => {
    await handle?.close();
  });

  const where = (scope: Scope) =>
    sql`project_id = ${scope.projectId}::uuid
      and started_at >= ${scope.window.from.toISOString()}::timestamptz
      and started_at < ${scope.window.to.toISOString()}::timestamptz
      ${scope.agent === undefined ? sql`` : sql`and agent = ${scope.agent}`}
      ${scope.variant === undefined ? sql`` : sql`and variant = ${scope.variant}`}
      ${scope.exitCategory === undefined ? sql`` : sql`and exit_category = ${scope.exitCategory}::exit_category`}
      ${scope.flag === undefined ? sql`` : sql.raw(`and ${FLAG_COLUMNS[scope.flag]} is not null`)}`;

  const directGroups = async (scope: Scope) => {
    const rows = await rawRows(
      handle.db,
      sql`select exit_category::text as c, count(*)::int as n,
            sum(cost_usd::numeric)::float8 as cost
          from runs where ${where(scope)} group by 1`,
    );
    const total = rows.reduce((s, r) => s + Number(r.n), 0);
    return rows
      .map((r) => ({
        exitCategory: String(r.c),
        runs: Number(r.n),
        costUsd: Number(r.cost),
        share: Number(r.n) / total,
      }))
      .sort(
        (a, b) =>
          EXIT_CATEGORIES.indexOf(a.exitCategory as never) -
          EXIT_CATEGORIES.indexOf(b.exitCategory as never),
      );
  };

  const directBuckets = async (scope: Scope, unit: string, zone = 'UTC') => {
    const rows = await rawRows(
      handle.db,
      sql`select (extract(epoch from date_trunc(${unit}, started_at at time zone ${zone}) at time zone ${zone}) * 1000)::float8 as b,
            exit_category::text as c, count(*)::int as n, sum(cost_usd::numeric)::float8 as cost
          from runs where ${where(scope)} group by 1, exit_category order by 1, exit_category`,
    );
    const buckets = new Map<number, { runs: Record<string, number>; costUsd: number }>();
    for (const r of rows) {
      const entry = buckets.get(Number(r.b)) ?? { runs: {}, costUsd: 0 };
      entry.runs[String(r.c)] = Number(r.n);
      entry.costUsd += Number(r.cost);
      buckets.set(Number(r.b), entry);
    }
    return buckets;
  };

  const directFacet = async (scope: Scope, column: 'agent' | 'variant') =>
    (
      await rawRows(
        handle.db,
        sql`select ${sql.raw(column)} as value, count(*)::int as runs from runs
            where ${where(scope)} and ${sql.raw(column)} is not null
            group by 1 order by 2 desc, 1 limit 100`,
      )
    ).map((r) => ({ value: String(r.value), runs: Number(r.runs) }));

  const directTotals = async (scope: Scope) => {
    const [t] = await rawRows(
      handle.db,
      sql`select count(*)::int as runs, coalesce(sum(cost_usd::numeric), 0)::float8 as cost,
            coalesce(sum(wasted_usd::numeric), 0)::float8 as wasted,
            sum(case when first_signal_step is null then 0 else 1 end) as loops,
            coalesce(sum(verified_units::numeric), 0)::float8 as units
          from runs where ${where(scope)}`,
    );
    return {
      runs: Number(t?.runs),
      costUsd: Number(t?.cost),
      wastedUsd: Number(t?.wasted),
      loopRuns: Number(t?.loops ?? 0),
      verifiedUnits: Number(t?.units),
    };
  };

  const check = async (scope: Scope) => {
    const db = handle.db;
    expect(await exitReasonGroups(db, scope)).toEqual(await directGroups(scope));
    const { exitCategory: _category, ...headline } = scope;
    expect(await windowTotals(db, headline)).toEqual(await directTotals(headline));
    const bucket = bucketFor(scope.window);
    const series = await categoriesOverTime(db, { ...scope, bucket });
    const expected = await directBuckets(scope, bucket);
    for (const b of series) {
      expect(b.runs).toEqual(expected.get(b.startMs)?.runs ?? {});
      expect(b.costUsd).toBe(expected.get(b.startMs)?.costUsd ?? 0);
    }
    const inSeries = new Set(series.map((b) => b.startMs));
    if (series.length < 500)
      expect([...expected.keys()].filter((k) => !inSeries.has(k))).toEqual([]);
    const facets = await runFacets(db, scope);
    const facetScope = {
      projectId: scope.projectId,
      window: scope.window,
      exitCategory: scope.exitCategory,
      flag: scope.flag,
    };
    expect(facets.agents).toEqual(await directFacet(facetScope, 'agent'));
    expect(facets.variants).toEqual(
      await directFacet({ ...facetScope, agent: scope.agent }, 'variant'),
    );
  };

  it('equal a direct aggregation of runs for windows with odd edges, filtered or not', async () => {
    expect((await exitReasonGroups(handle.db, { projectId, window: WINDOWS[6]! })).length).toBe(5);
    for (const window of WINDOWS) {
      for (const filter of [
        {},
        { agent: 'coder' },
        { variant: 'b' },
        { agent: 'ops', variant: 'a' },
      ]) {
        await check({ projectId, window, ...filter });
      }
    }
  });

  it('count only the runs of an exit category or a loop signal, as the list does', async () => {
    const all = WINDOWS[6]!;
    const groups = await exitReasonGroups(handle.db, { projectId, window: all, flag: 'revisit' });
    expect(groups.reduce((n, g) => n + g.runs, 0)).toBe(134); // runs 0, 3, 6 … 399
    // Runs 0, 3, 5, 6, 9, 10 …: multiples of 3 or 5 (134 + 80 − 27 = 187; run-7 and run-8, removed, are neither).
    const totals = await windowTotals(handle.db, { projectId, window: all });
    expect(totals).toMatchObject({ runs: 398, loopRuns: 187 });
    expect(totals.wastedUsd).toBeGreaterThan(0);
    expect(totals.verifiedUnits).toBeGreaterThan(0);
    for (const window of WINDOWS) {
      for (const filter of [
        { flag: 'revisit' as const },
        { exitCategory: 'no_progress' as const },
        { flag: 'repeat' as const, agent: 'coder' },
        { exitCategory: 'unknown' as const, variant: 'a' },
        { exitCategory: 'goal_satisfied' as const, flag: 'revisit' as const, agent: 'crawler' },
      ]) {
        await check({ projectId, window, ...filter });
      }
    }
  });

  it('bucket by the days of the reader’s time zone', async () => {
    for (const zone of ['Europe/Berlin', 'America/New_York']) {
      for (const window of [WINDOWS[3]!, WINDOWS[5]!]) {
        for (const filter of [{}, { agent: 'coder' }, { flag: 'revisit' as const }]) {
          const scope = { projectId, window, ...filter };
          const series = await categoriesOverTime(handle.db, {
            ...scope,
            bucket: 'day',
            timeZone: zone,
          });
          const expected = await directBuckets(scope, 'day', zone);
          expect(series.map((b) => b.startMs)).toEqual(
            expect.arrayContaining([...expected.keys()]),
          );
          for (const b of series) {
            // Each bucket starts at a local midnight.
            expect(new Date(b.startMs).toLocaleTimeString('en-GB', { timeZone: zone })).toBe(
              '00:00:00',
            );
            expect(b.runs).toEqual(expected.get(b.startMs)?.runs ?? {});
          }
        }
      }
    }
  });

  it('equal a direct aggregation for any window', async () => {
    const instant = fc.integer({ min: BASE - HOUR, max: BASE + SPAN + HOUR });
    await fc.assert(
      fc.asyncProperty(
        instant,
        instant,
        fc.constantFrom(undefined, 'coder', 'crawler', 'nobody'),
        fc.constantFrom(undefined, 'a', 'b'),
        async (a, b, agent, variant) => {
          await check({ projectId, window: win(Math.min(a, b), Math.max(a, b)), agent, variant });
        },
      ),
      { numRuns: kind === 'pglite' ? 40 : 80 },
    );
  });
});
