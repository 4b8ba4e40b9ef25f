// Loop patterns across a window's runs (docs/api.md, "Loop patterns across runs"). A pattern's
// window total is summed from pattern_rollups for the window's whole UTC days and hours and from
// run_patterns for the partial hours at its edges, as window-runs.ts does for runs. Which
// patterns make the page is found by walking pattern_totals (each pattern's all-time total, which
// no window can exceed) in order of wasted spend, summing the window for a batch at a time, and
// stopping once the page's last pattern beats every total still to come: the cost follows the
// page, not how many distinct loops the window holds. When the window holds little of the
// patterns' history that walk runs long, and the whole window is summed instead. First and last
// seen and the example runs come from run_patterns by its (signature, started_at) index, for the
// patterns returned only. Before all that, a window of the length of a built one
// (pattern_windows, db/write/pattern-windows.ts) ending a little after it is ranked from it.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { LoopPatternJson } from '../../lib/api-types';
import type { TimeWindow } from '../../lib/filters';

export type { LoopPatternJson };
import type { PatternKind } from '../../trajectory/loop-patterns';
import type { Executor } from '../sql';
import { asJsonParam, column, queryRows } from '../sql';

export interface PatternScope {
  projectId: string;
  window: TimeWindow;
  agent?: string;
  kind?: PatternKind;
  /** Only this pattern (its signature; agent and kind as the other filters say). */
  signature?: string;
  limit: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const ceilTo = (ms: number, size: number) => Math.ceil(ms / size) * size;
const floorTo = (ms: number, size: number) => Math.floor(ms / size) * size;

/**
 * Totals walked, per pattern asked for, before the whole window is summed instead: a bound on
 * what a walk that does not settle can waste, not a tuned figure (in the trials behind
 * BENCHMARKS.md, the walks of 7 and 30 days at 10M steps settled in their first batch).
 */
export const WALK_PER_PATTERN = 8;
/**
 * The share of the project's pattern history (its first to its last day) a window must hold for
 * the walk: a window that holds less holds too little of each total for the walk to stop early.
 */
export const WALK_COVERAGE = 0.5;

interface Ranked {
  signature: string;
  kind: string;
  agent: string;
  runs: number;
  wasted_usd: number;
}

const rankedRow = z.object({
  signature: column.text,
  kind: column.text,
  agent: column.text,
  runs: column.number,
  wasted_usd: column.number,
});

/** How the page is found; the defaults are the measured ones, tests force either way. */
export interface PatternTuning {
  /** Totals walked at most (0: always sum the window); window rows ranked from at most, alike. */
  walkLimit?: number;
  walkCoverage?: number;
  /** Rank from a built window (pattern_windows) when one fits; false: never. */
  windows?: boolean;
}

/** How far before a window's end a built window may end and still be ranked from. */
export const WINDOW_ANCHOR_GAP_MS = 3 * HOUR_MS;

export async function loopPatterns(
  db: Executor,
  scope: PatternScope,
  {
    walkLimit = WALK_PER_PATTERN * Math.max(scope.limit, 25),
    walkCoverage = WALK_COVERAGE,
    windows = true,
  }: PatternTuning = {},
): Promise<LoopPatternJson[]> {
  const ranked = windows ? await rankFromWindow(db, scope, walkLimit) : null;
  if (ranked) return withDetails(db, scope, ranked);
  const walk =
    scope.signature === undefined &&
    walkLimit > 0 &&
    (await coversHistory(db, scope, walkCoverage));
  const totals =
    (walk ? await walkTotals(db, scope, walkLimit) : null) ?? (await sumWindow(db, scope));
  return withDetails(db, scope, totals);
}

function scopeFilters(scope: PatternScope): SQL {
  return sql`${scope.agent === undefined ? sql`` : sql` and agent = ${scope.agent}`}${
    scope.kind === undefined ? sql`` : sql` and kind = ${scope.kind}`
  }${scope.signature === undefined ? sql`` : sql` and signature = ${scope.signature}`}`;
}

/**
 * The window's share of every pattern the conditions let through, as selects of (signature,
 * kind, agent, runs, wasted_usd) to be summed: the partial hours at its edges from the runs' own
 * rows, its whole hours from the rollup (whole UTC days as day rows).
 */
export function windowParts(
  scope: Pick<PatternScope, 'projectId' | 'window'>,
  conditions: SQL,
): SQL[] {
  const edge = (from: number, to: number) => sql`
    select signature, kind, agent, count(*)::int as runs,
      coalesce(sum(wasted_usd::numeric), 0) as wasted_usd
    from run_patterns
    where project_id = ${scope.projectId}::uuid and started_at >= ${at(from)}
      and started_at < ${at(to)}${conditions}
    group by 1, 2, 3`;
  const buckets = ({ grain, from, to, sign }: Buckets) => sql`
    select signature, kind, agent, ${sql.raw(sign < 0 ? '-runs' : 'runs')} as runs,
      ${sql.raw(sign < 0 ? '-wasted_usd' : 'wasted_usd')} as wasted_usd
    from pattern_rollups
    where project_id = ${scope.projectId}::uuid and grain = ${grain}::rollup_grain
      and bucket >= ${at(from)} and bucket < ${at(to)}${conditions}`;
  // A partial hour: its runs, or the hour's row less the runs of the rest of it when that rest
  // is shorter or has not happened yet (a window ending now).
  const partial = (a: number, b: number): SQL[] => {
    const hour = floorTo(a, HOUR_MS);
    const end = hour + HOUR_MS;
    if (HOUR_MS - (b - a) >= b - a && !(a === hour && b >= Date.now())) return [edge(a, b)];
    const away = (x: number, y: number) =>
      x < y
        ? [
            sql`select signature, kind, agent, -runs as runs, -wasted_usd as wasted_usd
              from (${edge(x, y)}) r`,
          ]
        : [];
    return [
      buckets({ grain: 'hour', from: hour, to: end, sign: 1 }),
      ...away(hour, a),
      ...away(b, end),
    ];
  };
  const from = scope.window.from.getTime();
  const to = scope.window.to.getTime();
  const firstHour = ceilTo(from, HOUR_MS);
  const lastHour = floorTo(to, HOUR_MS);
  if (firstHour > lastHour) return [edge(from, to)];
  const parts = wholeHours(firstHour, lastHour).map(buckets);
  if (from < firstHour) parts.push(...partial(from, firstHour));
  if (lastHour < to) parts.push(...partial(lastHour, to));
  return parts;
}

interface Buckets {
  grain: 'hour' | 'day';
  from: number;
  to: number;
  /** -1: rows taken away (a day's hours outside the window, from that day's row). */
  sign: 1 | -1;
}

/**
 * Rollup ranges that sum to the whole hours [a, b): day rows for whole days, and for a part of
 * a day either its hours or, when that is fewer rows, the day's row less the hours left out.
 */
export function wholeHours(a: number, b: number): Buckets[] {
  if (a >= b) return [];
  const hours = (from: number, to: number, sign: 1 | -1): Buckets[] =>
    from < to ? [{ grain: 'hour', from, to, sign }] : [];
  const partOfDay = (day: number, from: number, to: number): Buckets[] => {
    if (from >= to) return [];
    const kept = (to - from) / HOUR_MS;
    if (kept <= 12) return hours(from, to, 1);
    return [
      { grain: 'day', from: day, to: day + DAY_MS, sign: 1 },
      ...hours(day, from, -1),
      ...hours(to, day + DAY_MS, -1),
    ];
  };
  const firstWhole = ceilTo(a, DAY_MS);
  const lastWhole = floorTo(b, DAY_MS);
  if (firstWhole > lastWhole) return partOfDay(floorTo(a, DAY_MS), a, b);
  return [
    ...partOfDay(firstWhole - DAY_MS, a, firstWhole),
    ...(firstWhole < lastWhole
      ? [{ grain: 'day' as const, from: firstWhole, to: lastWhole, sign: 1 as const }]
      : []),
    ...partOfDay(lastWhole, lastWhole, b),
  ];
}

/** Whether the window holds at least `coverage` of the days the project has patterns on. */
async function coversHistory(
  db: Executor,
  scope: PatternScope,
  coverage: number,
): Promise<boolean> {
  const [span] = await queryRows(
    db,
    sql`select (extract(epoch from min(bucket)) * 1000)::float8 as first,
        (extract(epoch from max(bucket)) * 1000)::float8 as last
      from pattern_rollups where project_id = ${scope.projectId}::uuid and grain = 'day'`,
    z.object({ first: column.numberOrNull, last: column.numberOrNull }),
  );
  if (span?.first == null || span.last == null) return false;
  const history = span.last + DAY_MS - span.first;
  const held =
    Math.min(scope.window.to.getTime(), span.last + DAY_MS) -
    Math.max(scope.window.from.getTime(), span.first);
  return held >= coverage * history;
}

/** The corrections of a window built to the very end asked: no rows, of the corrections' shape. */
const NO_CORRECTIONS = sql`select null::text as signature, null::text as kind,
  null::text as agent, 0 as runs, 0::numeric as wasted_usd where false`;

/**
 * The page ranked from the built window of the same length whose end is nearest this one's, at
 * most `WINDOW_ANCHOR_GAP_MS` away, before or after it (db/write/pattern-windows.ts): its rows
 * walked from the top, a batch at a time, each candidate's share corrected by the time between
 * the two ends (at this window's end and at its start, added where this window holds it and
 * the built one does not, taken away where the built one holds it and this one does not), and
 * every pattern the correction touches a candidate too. A pattern outside both has its built
 * sum as its share, at most the last row walked, so once the page's last pattern outranks that
 * row the page is exact. Null when no window fits, or `walkLimit` rows did not settle it.
 */
export async function rankFromWindow(
  db: Executor,
  scope: PatternScope,
  walkLimit: number,
): Promise<Ranked[] | null> {
  if (scope.signature !== undefined || walkLimit <= 0) return null;
  const from = scope.window.from.getTime();
  const to = scope.window.to.getTime();
  const days = (to - from) / DAY_MS;
  if (!Number.isInteger(days) || days <= 0) return null;
  const [built] = await queryRows(
    db,
    sql`select (extract(epoch from anchor) * 1000)::float8 as anchor from pattern_window_anchors
      where project_id = ${scope.projectId}::uuid and days = ${days}
        and anchor between ${at(to - WINDOW_ANCHOR_GAP_MS)} and ${at(to + WINDOW_ANCHOR_GAP_MS)}
      order by abs(extract(epoch from anchor - ${at(to)})), anchor desc limit 1`,
    z.object({ anchor: column.number }),
  );
  if (!built) return null;
  const anchor = built.anchor;
  const conditions = scopeFilters(scope);
  // The time between two instants as parts of this window's sum: + where it holds them.
  const between = (a: number, b: number, sign: 1 | -1): SQL[] => {
    const parts = windowParts(
      { ...scope, window: { from: new Date(Math.min(a, b)), to: new Date(Math.max(a, b)) } },
      conditions,
    );
    return (a < b ? sign : -sign) > 0
      ? parts
      : parts.map(
          (part) =>
            sql`select signature, kind, agent, -runs as runs, -wasted_usd as wasted_usd from (${part}) r`,
        );
  };
  const span = days * DAY_MS;
  const corrections =
    anchor === to ? [] : [...between(anchor, to, 1), ...between(anchor - span, from, -1)];
  const windowRow = sql`project_id = ${scope.projectId}::uuid and days = ${days}
    and anchor = ${at(anchor)}`;
  for (let batch = scope.limit + 16; ; batch *= 2) {
    const size = Math.min(batch, walkLimit);
    const rows = await queryRows(
      db,
      sql`
      with corrected as (
        select signature, kind, agent, sum(runs) as runs, sum(wasted_usd) as wasted_usd
        from (${corrections.length > 0 ? sql.join(corrections, sql` union all `) : NO_CORRECTIONS}) c
        group by 1, 2, 3
      ), walked as (
        select signature, kind, agent from pattern_windows
        where ${windowRow}${conditions}
        -- The index's order: the table's columns, not the float8 output of the same name.
        order by wasted_usd desc, runs desc, signature desc, agent desc
        limit ${size}
      ), candidates as (
        select signature, kind, agent, bool_or(walked) as walked
        from (select *, true as walked from walked
          union all select signature, kind, agent, false from corrected) c
        group by 1, 2, 3
      )
      select c.signature, c.kind, c.agent, c.walked,
        (coalesce(w.runs, 0) + coalesce(x.runs, 0))::int as runs,
        (coalesce(w.wasted_usd, 0) + coalesce(x.wasted_usd, 0))::float8 as wasted_usd,
        coalesce(w.runs, 0) as built_runs, coalesce(w.wasted_usd, 0)::float8 as built_wasted
      from candidates c
      -- By key, one candidate at a time: a few hundred lookups, not a hash of every window row.
      left join lateral (
        select runs, wasted_usd from pattern_windows
        where ${windowRow} and signature = c.signature and kind = c.kind and agent = c.agent
        limit 1
      ) w on true
      left join corrected x on x.signature = c.signature and x.kind = c.kind
        and x.agent = c.agent`,
      rankedRow.extend({
        walked: column.boolean,
        built_runs: column.number,
        built_wasted: column.number,
      }),
    );
    const page = rows
      .filter((r) => r.runs > 0)
      .map(({ signature, kind, agent, runs, wasted_usd }) => ({
        signature,
        kind,
        agent,
        runs,
        wasted_usd,
      }));
    page.sort(byRank);
    page.length = Math.min(page.length, scope.limit);
    const walked = rows.filter((r) => r.walked);
    // Every built row walked: nothing is left outside the candidates.
    if (walked.length < size) return page;
    const last = walked
      .map((r) => ({ ...r, runs: r.built_runs, wasted_usd: r.built_wasted }))
      .sort(byRank)
      .at(-1)!;
    const kth = page[scope.limit - 1];
    if (kth && outranks(kth, last)) return page;
    if (size >= walkLimit) return null;
  }
}

/** Every pattern of the window summed, then ranked: the page. */
async function sumWindow(db: Executor, scope: PatternScope): Promise<Ranked[]> {
  return queryRows(
    db,
    sql`
    select signature, kind, agent, sum(runs)::int as runs, sum(wasted_usd)::float8 as wasted_usd
    from (${sql.join(windowParts(scope, scopeFilters(scope)), sql` union all `)}) p
    group by 1, 2, 3
    having sum(runs) > 0
    order by wasted_usd desc, runs desc, signature collate "C", agent collate "C"
    limit ${scope.limit}`,
    rankedRow,
  );
}

/**
 * The page found by walking the all-time totals in order of wasted spend (then runs), a batch at
 * a time, each batch's window share summed by pattern. A pattern's window share is at most its
 * total, so once the page is full and its last pattern ranks above the last total walked,
 * nothing further down can enter it. Null when `walkLimit` totals did not settle it.
 */
async function walkTotals(
  db: Executor,
  scope: PatternScope,
  walkLimit: number,
): Promise<Ranked[] | null> {
  const page: Ranked[] = [];
  let after: { wasted: string; runs: number; signature: string; agent: string } | null = null;
  let walked = 0;
  for (let batch = scope.limit + 16; walked < walkLimit; batch *= 2) {
    const size = Math.min(batch, walkLimit - walked);
    const totals: (Ranked & { wasted_text: string })[] = await queryRows(
      db,
      sql`
      select signature, kind, agent, runs, wasted_usd::text as wasted_text,
        wasted_usd::float8 as wasted_usd
      from pattern_totals t
      where project_id = ${scope.projectId}::uuid${scopeFilters(scope)}${
        after === null
          ? sql``
          : sql` and (t.wasted_usd, t.runs, t.signature, t.agent) < (${after.wasted}::numeric, ${after.runs}::int, ${after.signature}, ${after.agent})`
      }
      -- The table's columns, not the float8 output of the same name: the index's order.
      order by t.wasted_usd desc, t.runs desc, t.signature desc, t.agent desc
      limit ${size}`,
      rankedRow.extend({ wasted_text: column.text }),
    );
    if (totals.length === 0) return page;
    walked += totals.length;
    page.push(...(await windowShares(db, scope, totals)));
    page.sort(byRank);
    page.length = Math.min(page.length, scope.limit);
    const last = totals[totals.length - 1]!;
    if (totals.length < size) return page;
    const kth = page[scope.limit - 1];
    if (kth && outranks(kth, last)) return page;
    after = {
      wasted: last.wasted_text,
      runs: last.runs,
      signature: last.signature,
      agent: last.agent,
    };
  }
  return null;
}

/** The window's share of each of these patterns (those with none left out). */
async function windowShares(
  db: Executor,
  scope: PatternScope,
  patterns: readonly Ranked[],
): Promise<Ranked[]> {
  const mine = sql` and signature = c.signature and kind = c.kind and agent = c.agent`;
  return queryRows(
    db,
    sql`
    select c.signature, c.kind, c.agent, s.runs, s.wasted_usd
    from jsonb_to_recordset(${asJsonParam(patterns.map(({ signature, kind, agent }) => ({ signature, kind, agent })))}::jsonb)
      as c(signature text, kind text, agent text)
    cross join lateral (
      select coalesce(sum(runs), 0)::int as runs, coalesce(sum(wasted_usd), 0)::float8 as wasted_usd
      from (${sql.join(windowParts(scope, mine), sql` union all `)}) p
    ) s
    where s.runs > 0`,
    rankedRow,
  );
}

/** The page's order: wasted spend, then runs, descending; then signature and agent by code point. */
function byRank(a: Ranked, b: Ranked): number {
  return (
    b.wasted_usd - a.wasted_usd ||
    b.runs - a.runs ||
    byCodePoint(a.signature, b.signature) ||
    byCodePoint(a.agent, b.agent)
  );
}

/** Whether `a` ranks strictly above every pattern whose window share is at most `bound`. */
function outranks(a: Ranked, bound: Ranked): boolean {
  return (
    a.wasted_usd > bound.wasted_usd || (a.wasted_usd === bound.wasted_usd && a.runs > bound.runs)
  );
}

/** Postgres's "C" order for UTF-8 text: by code point, which UTF-16 comparison is not. */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = x[k]!.codePointAt(0)! - y[k]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

async function withDetails(
  db: Executor,
  scope: PatternScope,
  totals: readonly Ranked[],
): Promise<LoopPatternJson[]> {
  const from = scope.window.from.getTime();
  const to = scope.window.to.getTime();
  if (totals.length === 0) return [];
  // Per pattern: its newest five runs in the window (with the label they carry) and its first.
  const details = await queryRows(
    db,
    sql`
    select t.signature, t.agent, newest.run_ids, newest.label, newest.last_seen, oldest.first_seen
    from jsonb_to_recordset(${asJsonParam(totals.map((t) => ({ signature: t.signature, agent: t.agent })))}::jsonb)
      as t(signature text, agent text)
    cross join lateral (
      select array_agg(r.run_id order by r.started_at desc, r.run_id desc) as run_ids,
        (array_agg(r.label order by r.started_at desc, r.run_id desc))[1] as label,
        max(r.started_at) as last_seen
      from (
        select run_id, label, started_at from run_patterns
        where project_id = ${scope.projectId}::uuid and signature = t.signature
          and agent = t.agent and started_at >= ${at(from)} and started_at < ${at(to)}
        order by started_at desc, run_id desc
        limit 5
      ) r
    ) newest
    cross join lateral (
      select min(started_at) as first_seen from (
        select started_at from run_patterns
        where project_id = ${scope.projectId}::uuid and signature = t.signature
          and agent = t.agent and started_at >= ${at(from)} and started_at < ${at(to)}
        order by started_at limit 1
      ) o
    ) oldest`,
    z.object({
      signature: column.text,
      agent: column.text,
      run_ids: column.textArray,
      label: column.text,
      last_seen: column.isoTime,
      first_seen: column.isoTime,
    }),
  );
  const byKey = new Map(details.map((d) => [`${d.signature}\u0000${d.agent}`, d]));
  return totals.map((t) => {
    const d = byKey.get(`${t.signature}\u0000${t.agent}`);
    return {
      kind: t.kind as PatternKind,
      agent: t.agent === '' ? null : t.agent,
      signature: t.signature,
      label: d?.label ?? '',
      runs: t.runs,
      wastedUsd: t.wasted_usd,
      firstSeen: d?.first_seen ?? scope.window.from.toISOString(),
      lastSeen: d?.last_seen ?? scope.window.to.toISOString(),
      exampleRunIds: d?.run_ids ?? [],
    };
  });
}
