// One mechanism for every rollup kept current at derive time. A rollup is a contribution (what a
// set of runs adds, grouped by its key) and the tables it feeds. In the transaction that replaces
// runs: read the touched runs' contribution before they change, then write (new − old) to each
// table in one statement. Keys are written in sorted order, table by table, so transactions that
// share keys lock them in one order and cannot deadlock on them; a key whose change is zero is
// not written at all (a re-sent span that changes nothing takes no rollup lock); keys left with
// no runs are deleted. Measures are numeric on both sides, so sums are exact and order-free.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { asJsonParam, column, queryRows } from '../sql';

export interface RollupColumn {
  name: string;
  /** The SQL type it has in the contribution (and the tables). */
  type: string;
}

export interface RollupTarget {
  table: string;
  /** The table's key after project_id, as expressions over the delta rows (`d`), in key order. */
  keys: { name: string; expr: string; type: string }[];
  /**
   * Extra rows joined to each delta row, e.g. one per grain (`from delta d ${fanOut}`); a delta
   * row with none is not written to this table.
   */
  fanOut?: string | ((projectId: string) => SQL);
}

export interface RollupSpec {
  /** The contribution's key columns and summed measures; `runs` must be among the measures. */
  keys: RollupColumn[];
  measures: RollupColumn[];
  /** A select of keys and measures, in that order, grouped by the keys: what the runs add. */
  contribution: (projectId: string, runIds: readonly string[] | null) => SQL;
  targets: RollupTarget[];
}

export type Contribution = Record<string, string>;

const columns = (spec: RollupSpec) => [...spec.keys, ...spec.measures];
const list = (names: string[]) => sql.raw(names.join(', '));

/** What the runs add to the rollup as stored now, every value as exact text (call before replacing them). */
export async function contributionsOf(
  tx: Executor,
  spec: RollupSpec,
  projectId: string,
  runIds: readonly string[],
): Promise<Contribution[]> {
  if (runIds.length === 0) return [];
  const all = columns(spec);
  const text = sql.raw(all.map((c) => `c.${c.name}::text as ${c.name}`).join(', '));
  return queryRows(
    tx,
    sql`select ${text} from (${spec.contribution(projectId, runIds)}) c`,
    z.record(z.string(), column.text),
  );
}

/** Adds the runs' contribution as stored now minus `before` to every target of the rollup. */
export async function applyDelta(
  tx: Executor,
  spec: RollupSpec,
  projectId: string,
  runIds: readonly string[],
  before: readonly Contribution[],
): Promise<void> {
  if (runIds.length === 0) return;
  const keys = spec.keys.map((c) => c.name);
  const measures = spec.measures.map((c) => c.name);
  const old = sql.raw(
    columns(spec)
      .map((c) => `x.${c.name}::${c.type} as ${c.name}`)
      .join(', '),
  );
  const recordset = sql.raw(
    columns(spec)
      .map((c) => `${c.name} text`)
      .join(', '),
  );
  const negated = sql.raw([...keys, ...measures.map((m) => `-${m}`)].join(', '));
  const sums = sql.raw(measures.map((m) => `sum(${m}) as ${m}`).join(', '));
  const changed = sql.raw(measures.map((m) => `sum(${m}) <> 0`).join(' or '));
  const writes = spec.targets.map(
    (t, k) => sql`, w${sql.raw(String(k))} as (${upsert(projectId, spec, t)})`,
  );
  const emptied = spec.targets.map(
    (t, k) =>
      sql`select ${k}::int as target, jsonb_build_object(${sql.raw(
        t.keys.map((c) => `'${c.name}', ${c.name}::text`).join(', '),
      )}) as key from w${sql.raw(String(k))} where runs <= 0`,
  );
  const rows = await queryRows(
    tx,
    sql`
    with old as (
      select ${old} from jsonb_to_recordset(${asJsonParam(before)}::jsonb) as x(${recordset})
    ), cur as (${spec.contribution(projectId, runIds)}),
    delta as materialized (
      select ${list(keys)}, ${sums}
      from (select * from cur union all select ${negated} from old) d
      group by ${list(keys)}
      having ${changed}
    )${sql.join(writes, sql``)}
    ${sql.join(emptied, sql` union all `)}`,
    z.object({ target: column.number, key: z.record(z.string(), column.text) }),
  );
  for (const [k, target] of spec.targets.entries()) {
    const gone = rows.filter((r) => r.target === k).map((r) => r.key);
    if (gone.length > 0) await deleteEmptied(tx, projectId, target, gone);
  }
}

/** The project's rollup rebuilt from all its runs (bulk loads; derivation keeps it by deltas). */
export async function rebuildRollup(
  tx: Executor,
  spec: RollupSpec,
  projectId: string,
): Promise<void> {
  for (const target of spec.targets) {
    await tx.execute(
      sql`delete from ${sql.raw(target.table)} where project_id = ${projectId}::uuid`,
    );
  }
  const writes = spec.targets.map(
    (t, k) => sql`, w${sql.raw(String(k))} as (${upsert(projectId, spec, t)})`,
  );
  await tx.execute(sql`
    with delta as materialized (${spec.contribution(projectId, null)})${sql.join(writes, sql``)}
    ${sql.join(
      spec.targets.map((_, k) => sql`select count(*) from w${sql.raw(String(k))}`),
      sql` union all `,
    )}`);
}

/** One target's share of the delta: summed to its key, zero changes dropped, written in order. */
function upsert(projectId: string, spec: RollupSpec, target: RollupTarget): SQL {
  const name = sql.raw(target.table);
  const keyNames = target.keys.map((c) => c.name);
  const keyExprs = sql.raw(target.keys.map((c) => `${c.expr} as ${c.name}`).join(', '));
  const measures = spec.measures.map((c) => c.name);
  const sums = sql.raw(measures.map((m) => `sum(${m})::${typeOf(spec, m)}`).join(', '));
  const changed = sql.raw(measures.map((m) => `sum(${m}) <> 0`).join(' or '));
  const added = sql.raw(
    measures.map((m) => `${m} = ${target.table}.${m} + excluded.${m}`).join(', '),
  );
  return sql`insert into ${name} (project_id, ${list(keyNames)}, ${list(measures)}, updated_at)
    select ${projectId}::uuid, ${list(keyNames)}, ${sums}, now()
    from (select ${keyExprs}, ${list(measures)} from delta d ${fanOutOf(target, projectId)}) t
    group by ${list(keyNames)}
    having ${changed}
    order by ${list(keyNames)}
    on conflict (project_id, ${list(keyNames)}) do update set ${added}, updated_at = excluded.updated_at
    returning ${list(keyNames)}, runs`;
}

function fanOutOf(target: RollupTarget, projectId: string): SQL {
  const { fanOut } = target;
  if (fanOut === undefined) return sql``;
  return typeof fanOut === 'string' ? sql.raw(fanOut) : fanOut(projectId);
}

function typeOf(spec: RollupSpec, name: string): string {
  return spec.measures.find((c) => c.name === name)?.type ?? 'numeric';
}

async function deleteEmptied(
  tx: Executor,
  projectId: string,
  target: RollupTarget,
  keys: Record<string, string>[],
): Promise<void> {
  const recordset = sql.raw(target.keys.map((c) => `${c.name} text`).join(', '));
  const matches = sql.raw(
    target.keys.map((c) => ` and r.${c.name} = x.${c.name}::${c.type}`).join(''),
  );
  await tx.execute(sql`
    delete from ${sql.raw(target.table)} r
    using jsonb_to_recordset(${asJsonParam(keys)}::jsonb) as x(${recordset})
    where r.project_id = ${projectId}::uuid${matches} and r.runs <= 0`);
}
