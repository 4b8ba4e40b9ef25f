// Keeps run_rollups, run_category_rollups and run_agent_rollups current inside the transaction
// that replaces runs, as weekly-rollups.ts keeps weekly_rollups: read the touched runs'
// contributions before they change (per hour, category, agent and variant: every other key is a
// sum of these), then add (new − old) in one statement that writes all three tables at both
// grains. Keys are written in sorted order, table by table, so transactions that share keys
// lock them in the same order and cannot deadlock on them; a key whose change is zero is not
// written at all; keys left with no runs are deleted.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../sql';
import { z } from 'zod';
import { asJsonParam, asPgArray, column, queryRows } from '../sql';

/** The touched runs' share of one (hour, category, agent, variant); cost as exact decimal text. */
const contributionRow = z.object({
  /** Start of the UTC hour, ISO 8601. */
  hour: column.text,
  exit_category: column.text,
  agent: column.text,
  variant: column.text,
  runs: column.number,
  cost_usd: column.text,
});
export type RunContribution = z.output<typeof contributionRow>;
const emptiedKey = z.object({
  tbl: column.text,
  grain: column.text,
  bucket: column.text,
  exit_category: column.textOrNull,
  agent: column.text,
  variant: column.text,
});

// The one definition of a run's key and contribution (the migration's backfill repeats it): the
// UTC hour of started_at, and '' for a missing name.
const CONTRIBUTION = sql.raw(`
  date_trunc('hour', started_at, 'UTC') as hour, exit_category,
  coalesce(agent, '') as agent, coalesce(variant, '') as variant,
  count(*)::int as runs, coalesce(sum(cost_usd::numeric), 0) as cost_usd`);

const HOUR_TEXT = sql.raw(`'YYYY-MM-DD"T"HH24:00:00"Z"'`);

/** What the given runs add to the rollups as stored now (call before replacing them). */
export async function runContributions(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<RunContribution[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows(
    tx,
    sql`select to_char(c.hour at time zone 'UTC', ${HOUR_TEXT}) as hour,
          c.exit_category::text as exit_category, c.agent, c.variant, c.runs,
          c.cost_usd::text as cost_usd
        from (select ${CONTRIBUTION} from runs
              where project_id = ${projectId}::uuid and id = any(${asPgArray(runIds)}::text[])
              group by 1, 2, 3, 4) c`,
    contributionRow,
  );
  return rows;
}

interface RollupTable {
  name: string;
  /** The key columns after project, grain and bucket, in key order. */
  columns: string[];
}

export const ROLLUP_TABLES: RollupTable[] = [
  { name: 'run_rollups', columns: ['exit_category', 'agent', 'variant'] },
  { name: 'run_category_rollups', columns: ['exit_category'] },
  { name: 'run_agent_rollups', columns: ['agent', 'variant'] },
];

/** One table's share of the delta: summed to its key, zero changes dropped, written in order. */
function upsert(projectId: string, table: RollupTable): SQL {
  const cols = table.columns.join(', ');
  const key = `grain, bucket, ${cols}`;
  const name = sql.raw(table.name);
  const returned = table.columns
    .map((c) => (c === 'exit_category' ? 'exit_category::text as exit_category' : c))
    .join(', ');
  return sql`insert into ${name} (project_id, ${sql.raw(key)}, runs, cost_usd, updated_at)
    select ${projectId}::uuid, ${sql.raw(key)}, sum(runs)::int, sum(cost_usd), now()
    from by_grain
    group by ${sql.raw(key)}
    having sum(runs) <> 0 or sum(cost_usd) <> 0
    order by ${sql.raw(key)}
    on conflict (project_id, ${sql.raw(key)}) do update set
      runs = ${name}.runs + excluded.runs,
      cost_usd = ${name}.cost_usd + excluded.cost_usd,
      updated_at = excluded.updated_at
    returning grain::text as grain, to_char(bucket at time zone 'UTC', ${HOUR_TEXT}) as bucket,
      ${sql.raw(returned)}, runs`;
}

/** Adds the runs' contributions as stored now minus `before` to the three rollups. */
export async function applyRunRollupDelta(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  before: readonly RunContribution[],
): Promise<void> {
  if (runIds.length === 0) return;
  const [full, category, agent] = ROLLUP_TABLES.map((t) => upsert(projectId, t));
  const emptied = await queryRows(
    tx,
    sql`
    with old as (
      select x.hour::timestamptz as hour, x.exit_category::exit_category as exit_category,
        x.agent, x.variant, x.runs, x.cost_usd
      from jsonb_to_recordset(${asJsonParam(before)}::jsonb) as x(hour text, exit_category text,
        agent text, variant text, runs int, cost_usd numeric)
    ), cur as (
      select ${CONTRIBUTION} from runs
      where project_id = ${projectId}::uuid and id = any(${asPgArray(runIds)}::text[])
      group by 1, 2, 3, 4
    ), delta as (
      select hour, exit_category, agent, variant, sum(runs)::int as runs, sum(cost_usd) as cost_usd
      from (
        select * from cur
        union all
        select hour, exit_category, agent, variant, -runs, -cost_usd from old
      ) d
      group by hour, exit_category, agent, variant
      having sum(runs) <> 0 or sum(cost_usd) <> 0
    ), by_grain as materialized (
      select g.grain, date_trunc(g.grain::text, d.hour, 'UTC') as bucket, d.exit_category,
        d.agent, d.variant, d.runs, d.cost_usd
      from delta d cross join (values ('hour'::rollup_grain), ('day'::rollup_grain)) g(grain)
    ), w_full as (${full}), w_category as (${category}), w_agent as (${agent})
    select 'run_rollups' as tbl, grain, bucket, exit_category, agent, variant
      from w_full where runs <= 0
    union all
    select 'run_category_rollups', grain, bucket, exit_category, '', '' from w_category
      where runs <= 0
    union all
    select 'run_agent_rollups', grain, bucket, null, agent, variant from w_agent where runs <= 0`,
    emptiedKey,
  );
  for (const table of ROLLUP_TABLES) {
    const keys = emptied.filter((r) => r.tbl === table.name).map(({ tbl: _, ...key }) => key);
    if (keys.length === 0) continue;
    const matches = table.columns.map((c) =>
      c === 'exit_category'
        ? sql` and r.exit_category = x.exit_category::exit_category`
        : sql` and r.${sql.raw(c)} = x.${sql.raw(c)}`,
    );
    await tx.execute(sql`
      delete from ${sql.raw(table.name)} r
      using jsonb_to_recordset(${asJsonParam(keys)}::jsonb)
        as x(grain text, bucket text, exit_category text, agent text, variant text)
      where r.project_id = ${projectId}::uuid and r.grain = x.grain::rollup_grain
        and r.bucket = x.bucket::timestamptz${sql.join(matches, sql``)} and r.runs <= 0`);
  }
}

/** The project's rollups rebuilt from its runs (bulk loads; ingest keeps them by deltas). */
export async function rebuildRunRollups(tx: Executor, projectId: string): Promise<void> {
  for (const table of ROLLUP_TABLES) {
    await tx.execute(sql`delete from ${sql.raw(table.name)} where project_id = ${projectId}::uuid`);
  }
  const [full, category, agent] = ROLLUP_TABLES.map((t) => upsert(projectId, t));
  await tx.execute(sql`
    with by_grain as materialized (
      select g.grain, date_trunc(g.grain::text, c.hour, 'UTC') as bucket, c.exit_category,
        c.agent, c.variant, c.runs, c.cost_usd
      from (select ${CONTRIBUTION} from runs where project_id = ${projectId}::uuid
            group by 1, 2, 3, 4) c
      cross join (values ('hour'::rollup_grain), ('day'::rollup_grain)) g(grain)
    ), w_full as (${full}), w_category as (${category}), w_agent as (${agent})
    select (select count(*) from w_full) + (select count(*) from w_category)
      + (select count(*) from w_agent) as written`);
}
