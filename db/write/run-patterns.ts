// Each run's loop patterns (run_patterns), their hourly and daily rollup (pattern_rollups), the
// sums of the windows listed (pattern_windows) and their all-time totals (pattern_totals), replaced in the transaction that derives the run: the
// runs' old contribution out, the new one in (rollup-delta.ts), so deriving a run again never
// counts it twice.
import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asJsonParam, asPgArray } from '../sql';
import { sharePatternWindows } from './pattern-windows';
import { applyDelta, contributionsOf } from './rollup-delta';
import type { RollupSpec } from './rollup-delta';

export interface RunPatternRow {
  runId: string;
  signature: string;
  kind: string;
  /** '' for a run without an agent. */
  agent: string;
  label: string;
  startedAtMs: number;
  wastedUsd: number;
}

export const PATTERN_ROLLUP: RollupSpec = {
  keys: [
    { name: 'hour', type: 'timestamptz' },
    { name: 'signature', type: 'text' },
    { name: 'kind', type: 'text' },
    { name: 'agent', type: 'text' },
  ],
  measures: [
    { name: 'runs', type: 'int' },
    { name: 'wasted_usd', type: 'numeric' },
  ],
  contribution: (projectId, runIds) => sql`
    select date_trunc('hour', started_at, 'UTC') as hour, signature, kind, agent,
      count(*)::int as runs, coalesce(sum(wasted_usd::numeric), 0) as wasted_usd
    from run_patterns
    where project_id = ${projectId}::uuid
      ${runIds === null ? sql`` : sql`and run_id = any(${asPgArray(runIds)}::text[])`}
    group by 1, 2, 3, 4`,
  targets: [
    {
      table: 'pattern_rollups',
      keys: [
        { name: 'grain', expr: 'g.grain', type: 'rollup_grain' },
        { name: 'bucket', expr: `date_trunc(g.grain::text, d.hour, 'UTC')`, type: 'timestamptz' },
        { name: 'signature', expr: 'd.signature', type: 'text' },
        { name: 'kind', expr: 'd.kind', type: 'text' },
        { name: 'agent', expr: 'd.agent', type: 'text' },
      ],
      fanOut: `cross join (values ('hour'::rollup_grain), ('day'::rollup_grain)) g(grain)`,
    },
    {
      // Each listed window's sum (db/write/pattern-windows.ts): the hours inside it only.
      table: 'pattern_windows',
      keys: [
        { name: 'days', expr: 'w.days', type: 'int' },
        { name: 'anchor', expr: 'w.anchor', type: 'timestamptz' },
        { name: 'signature', expr: 'd.signature', type: 'text' },
        { name: 'kind', expr: 'd.kind', type: 'text' },
        { name: 'agent', expr: 'd.agent', type: 'text' },
      ],
      fanOut: (projectId) => sql`join pattern_window_anchors w on w.project_id = ${projectId}::uuid
        and d.hour >= w.anchor - make_interval(days => w.days) and d.hour < w.anchor`,
    },
    {
      // All time: the bound the patterns read stops at (db/schema/loop-patterns.ts).
      table: 'pattern_totals',
      keys: [
        { name: 'signature', expr: 'd.signature', type: 'text' },
        { name: 'kind', expr: 'd.kind', type: 'text' },
        { name: 'agent', expr: 'd.agent', type: 'text' },
      ],
    },
  ],
};

/** Replaces the patterns of `runIds` with `rows` (runs without a row are left with none). */
export async function replaceRunPatterns(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  rows: readonly RunPatternRow[],
): Promise<void> {
  if (runIds.length === 0) return;
  // Before the old contribution is read: a window being built waits for this transaction, and
  // then sums what it changed; one built before it is listed when its delta is written.
  await sharePatternWindows(tx, projectId);
  const before = await contributionsOf(tx, PATTERN_ROLLUP, projectId, runIds);
  if (before.length === 0 && rows.length === 0) return;
  await tx.execute(sql`
    delete from run_patterns
    where project_id = ${projectId}::uuid and run_id = any(${asPgArray(runIds)}::text[])`);
  if (rows.length > 0) {
    await tx.execute(sql`
      insert into run_patterns (project_id, run_id, signature, kind, agent, label, started_at,
        wasted_usd)
      select ${projectId}::uuid, x."runId", x.signature, x.kind, x.agent, x.label,
        to_timestamp(x."startedAtMs" / 1000.0), x."wastedUsd"
      from jsonb_to_recordset(${asJsonParam(rows)}::jsonb) as x("runId" text, signature text,
        kind text, agent text, label text, "startedAtMs" float8, "wastedUsd" float8)
      order by x."runId", x.signature`);
  }
  await applyDelta(tx, PATTERN_ROLLUP, projectId, runIds, before);
}
