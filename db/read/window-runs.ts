// The runs of a window as rows to aggregate, without reading every run: the window's whole UTC
// days and hours come from the rollups (one row per bucket and key), the partial hours at its
// edges from runs themselves (index-only reads of runs_window_idx, summed per key on the way).
// Summing these rows gives exactly what summing the window's runs gives: the same runs, the same
// cost (numeric on both sides, so the order of the additions does not matter). A dense window
// then costs about what a sparse one does: its whole days and hours are a few hundred rollup
// rows at most, its edges at most an hour of runs (a partial hour past its half is read as the
// hour's row less the runs of the rest of it). Every window aggregate of the dashboard
// reads this. A loop-signal filter has no rollup: those rows come from the window's runs that
// carry the signal, so every part of a filtered page counts the same runs as its list.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { RollupGrain } from '../schema/run-rollups';
import { runScope } from './run-filters';
import type { RunScope } from './run-filters';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type WindowScope = Pick<
  RunScope,
  'projectId' | 'window' | 'agent' | 'variant' | 'exitCategory' | 'flag'
>;

/**
 * What the rows are keyed by: `category` (exit category; no agent or variant filter allowed),
 * `agent` (agent and variant) or `full` (all three), each read from its own rollup.
 */
export type WindowKey = 'category' | 'agent' | 'full';

const ROLLUP: Record<WindowKey, { table: string; columns: string[] }> = {
  category: { table: 'run_category_rollups', columns: ['exit_category'] },
  agent: { table: 'run_agent_rollups', columns: ['agent', 'variant'] },
  full: { table: 'run_rollups', columns: ['exit_category', 'agent', 'variant'] },
};

export interface WindowRowsOptions {
  key: WindowKey;
  /** The coarsest rollup rows to use: `hour` when the caller groups by hour. */
  coarsest: RollupGrain;
  /** Include `bucket`: the start of the row's UTC hour (or day, for day rows). */
  bucket?: boolean;
  /** Include `cost_usd` (numeric). */
  cost?: boolean;
  /** Include `wasted_usd`, `verified_units` (numeric) and `loop_runs` (runs with a loop signal). */
  loops?: boolean;
}

/** The loop measures of runs themselves, as the rollups sum them (db/write/run-rollups.ts). */
const LOOP_SUMS = sql.raw(`coalesce(sum(wasted_usd::numeric), 0) as wasted_usd,
  (count(*) filter (where first_signal_step is not null))::int as loop_runs,
  coalesce(sum(verified_units::numeric), 0) as verified_units`);

/** The smallest rollup that can answer with the scope's filters. */
export function keyFor(scope: WindowScope): WindowKey {
  return scope.agent === undefined && scope.variant === undefined ? 'category' : 'full';
}

const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const ceilTo = (ms: number, size: number) => Math.ceil(ms / size) * size;
const floorTo = (ms: number, size: number) => Math.floor(ms / size) * size;

/**
 * A subquery over the window's runs with columns `runs`, the key's columns ('' standing for no
 * agent or variant) and, when asked, `bucket`, `cost_usd` and the loop measures.
 */
export function windowRuns(scope: WindowScope, options: WindowRowsOptions): SQL {
  if (options.key === 'category' && (scope.agent !== undefined || scope.variant !== undefined)) {
    throw new Error('run_category_rollups cannot filter by agent or variant');
  }
  if (options.key === 'agent' && scope.exitCategory !== undefined) {
    throw new Error('run_agent_rollups cannot filter by exit category');
  }
  if (scope.flag !== undefined) return flaggedRuns(scope, options);
  const from = scope.window.from.getTime();
  const to = scope.window.to.getTime();
  const parts: SQL[] = [];
  let takenAway = false;
  // A partial hour at an edge: its runs, or the hour's rollup row less the runs of the rest of
  // the hour when that rest is shorter, or has not happened yet (a window ending now).
  const edge = (a: number, b: number) => {
    const hour = floorTo(a, HOUR_MS);
    const end = hour + HOUR_MS;
    const rest = HOUR_MS - (b - a);
    if (rest >= b - a && !(a === hour && b >= Date.now())) {
      parts.push(runsBetween(scope, options, a, b));
      return;
    }
    parts.push(rollupBetween(scope, options, 'hour', hour, end));
    if (hour < a) parts.push(negated(runsBetween(scope, options, hour, a), options));
    if (b < end) parts.push(negated(runsBetween(scope, options, b, end), options));
    takenAway = true;
  };
  const firstHour = ceilTo(from, HOUR_MS);
  const lastHour = floorTo(to, HOUR_MS);
  if (firstHour > lastHour) {
    // Inside one hour: no boundary between from and to.
    parts.push(runsBetween(scope, options, from, to));
  } else {
    if (from < firstHour) edge(from, firstHour);
    const firstDay = ceilTo(firstHour, DAY_MS);
    const lastDay = floorTo(lastHour, DAY_MS);
    if (options.coarsest === 'day' && firstDay < lastDay) {
      if (firstHour < firstDay)
        parts.push(rollupBetween(scope, options, 'hour', firstHour, firstDay));
      parts.push(rollupBetween(scope, options, 'day', firstDay, lastDay));
      if (lastDay < lastHour) parts.push(rollupBetween(scope, options, 'hour', lastDay, lastHour));
    } else if (firstHour < lastHour) {
      parts.push(rollupBetween(scope, options, 'hour', firstHour, lastHour));
    }
    if (lastHour < to) edge(lastHour, to);
  }
  // An empty window: a branch that matches nothing keeps the columns' types.
  if (parts.length === 0) parts.push(runsBetween(scope, options, from, from));
  const union = sql`(${sql.join(parts, sql` union all `)})`;
  return takenAway ? summedByKey(union, options) : union;
}

/** The measures a row of `options` carries, after its key columns. */
function measures(options: WindowRowsOptions): string[] {
  return [
    'runs',
    ...(options.cost ? ['cost_usd'] : []),
    ...(options.loops ? ['wasted_usd', 'loop_runs', 'verified_units'] : []),
  ];
}

function keyColumns(options: WindowRowsOptions): string[] {
  return [...(options.bucket ? ['bucket'] : []), ...ROLLUP[options.key].columns];
}

/** Runs taken away: every measure of the rows negated. */
function negated(part: SQL, options: WindowRowsOptions): SQL {
  const columns = [...keyColumns(options), ...measures(options).map((m) => `-${m} as ${m}`)];
  return sql`select ${sql.raw(columns.join(', '))} from (${part}) n`;
}

/**
 * The rows summed per key, keys left with no runs dropped: with runs taken away, a key can sum
 * to zero, which no reader should see (a facet, a category) as a row of its own.
 */
function summedByKey(union: SQL, options: WindowRowsOptions): SQL {
  const keys = keyColumns(options);
  const sums = measures(options).map((m) =>
    m === 'runs' || m === 'loop_runs' ? `sum(${m})::int as ${m}` : `sum(${m}) as ${m}`,
  );
  return sql`(select ${sql.raw([...keys, ...sums].join(', '))} from ${union} k
    group by ${sql.raw(keys.join(', '))} having sum(runs) > 0)`;
}

function rollupBetween(
  scope: WindowScope,
  options: WindowRowsOptions,
  grain: RollupGrain,
  from: number,
  to: number,
): SQL {
  const { table, columns } = ROLLUP[options.key];
  const select = [
    ...(options.bucket ? ['bucket'] : []),
    ...columns,
    'runs',
    ...(options.cost ? ['cost_usd'] : []),
    ...(options.loops ? ['wasted_usd', 'loop_runs', 'verified_units'] : []),
  ];
  return sql`select ${sql.raw(select.join(', '))} from ${sql.raw(table)}
    where project_id = ${scope.projectId}::uuid and grain = ${grain}::rollup_grain
      and bucket >= ${at(from)} and bucket < ${at(to)}${names(scope)}`;
}

/** The runs of [from, to), a part of one hour, summed to the key (so few rows go on). */
function runsBetween(
  scope: WindowScope,
  options: WindowRowsOptions,
  from: number,
  to: number,
): SQL {
  const keys = ROLLUP[options.key].columns.map((c) =>
    c === 'exit_category' ? c : `coalesce(${c}, '')`,
  );
  const select = [
    ...(options.bucket ? [sql`${at(floorTo(from, HOUR_MS))} as bucket`] : []),
    ...keys.map((k, i) => sql.raw(`${k} as ${ROLLUP[options.key].columns[i]}`)),
    sql`count(*)::int as runs`,
    ...(options.cost ? [sql`coalesce(sum(cost_usd::numeric), 0) as cost_usd`] : []),
    ...(options.loops ? [LOOP_SUMS] : []),
  ];
  const window = { from: new Date(from), to: new Date(to) };
  return sql`select ${sql.join(select, sql`, `)} from runs
    where ${runScope({ ...scope, window })}
    group by ${sql.raw(keys.join(', '))}`;
}

/** The runs of the window that carry the scope's loop signal, as rows keyed like a rollup's. */
function flaggedRuns(scope: WindowScope, options: WindowRowsOptions): SQL {
  const keys = ROLLUP[options.key].columns.map((c) =>
    c === 'exit_category' ? c : `coalesce(${c}, '')`,
  );
  const hour = sql.raw(`date_trunc('hour', started_at at time zone 'UTC') at time zone 'UTC'`);
  const select = [
    ...(options.bucket ? [sql`${hour} as bucket`] : []),
    ...keys.map((k, i) => sql.raw(`${k} as ${ROLLUP[options.key].columns[i]}`)),
    sql`count(*)::int as runs`,
    ...(options.cost ? [sql`coalesce(sum(cost_usd::numeric), 0) as cost_usd`] : []),
    ...(options.loops ? [LOOP_SUMS] : []),
  ];
  return sql`(select ${sql.join(select, sql`, `)} from runs
    where ${runScope(scope)}
    group by ${sql.raw([...(options.bucket ? ['1'] : []), ...keys].join(', '))})`;
}

/** A rollup's agent, variant and exit-category filters; in a rollup '' is "none", never a filter. */
function names(scope: WindowScope): SQL {
  const conditions: SQL[] = [];
  if (scope.exitCategory !== undefined) {
    conditions.push(sql` and exit_category = ${scope.exitCategory}::exit_category`);
  }
  for (const [column, value] of [
    ['agent', scope.agent],
    ['variant', scope.variant],
  ] as const) {
    if (value === undefined) continue;
    conditions.push(value === '' ? sql` and false` : sql` and ${sql.raw(column)} = ${value}`);
  }
  return sql.join(conditions, sql``);
}
