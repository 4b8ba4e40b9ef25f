// Loop patterns across a window's runs (docs/api.md, "Loop patterns across runs"): summed from
// pattern_rollups for the window's whole UTC days and hours and from run_patterns for the partial
// hours at its edges, as window-runs.ts does for runs, so the answer costs about the same however
// many runs and steps the window holds. First and last seen and the example runs come from
// run_patterns by its (signature, started_at) index, for the patterns returned only.
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

export async function loopPatterns(db: Executor, scope: PatternScope): Promise<LoopPatternJson[]> {
  const filters = sql`${scope.agent === undefined ? sql`` : sql` and agent = ${scope.agent}`}${
    scope.kind === undefined ? sql`` : sql` and kind = ${scope.kind}`
  }${scope.signature === undefined ? sql`` : sql` and signature = ${scope.signature}`}`;
  const edge = (from: number, to: number) => sql`
    select signature, kind, agent, count(*)::int as runs,
      coalesce(sum(wasted_usd::numeric), 0) as wasted_usd
    from run_patterns
    where project_id = ${scope.projectId}::uuid and started_at >= ${at(from)}
      and started_at < ${at(to)}${filters}
    group by 1, 2, 3`;
  const buckets = (grain: 'hour' | 'day', from: number, to: number) => sql`
    select signature, kind, agent, runs, wasted_usd
    from pattern_rollups
    where project_id = ${scope.projectId}::uuid and grain = ${grain}::rollup_grain
      and bucket >= ${at(from)} and bucket < ${at(to)}${filters}`;
  const from = scope.window.from.getTime();
  const to = scope.window.to.getTime();
  const parts: SQL[] = [];
  const firstHour = ceilTo(from, HOUR_MS);
  const lastHour = floorTo(to, HOUR_MS);
  if (firstHour > lastHour) parts.push(edge(from, to));
  else {
    if (from < firstHour) parts.push(edge(from, firstHour));
    const firstDay = ceilTo(firstHour, DAY_MS);
    const lastDay = floorTo(lastHour, DAY_MS);
    if (firstDay < lastDay) {
      if (firstHour < firstDay) parts.push(buckets('hour', firstHour, firstDay));
      parts.push(buckets('day', firstDay, lastDay));
      if (lastDay < lastHour) parts.push(buckets('hour', lastDay, lastHour));
    } else if (firstHour < lastHour) {
      parts.push(buckets('hour', firstHour, lastHour));
    }
    if (lastHour < to) parts.push(edge(lastHour, to));
  }
  const totals = await queryRows(
    db,
    sql`
    select signature, kind, agent, sum(runs)::int as runs, sum(wasted_usd)::float8 as wasted_usd
    from (${sql.join(parts, sql` union all `)}) p
    group by 1, 2, 3
    having sum(runs) > 0
    order by wasted_usd desc, runs desc, signature, agent
    limit ${scope.limit}`,
    z.object({
      signature: column.text,
      kind: column.text,
      agent: column.text,
      runs: column.number,
      wasted_usd: column.number,
    }),
  );
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
