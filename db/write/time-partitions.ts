// Weekly partitions of the tables that grow with traffic (spans, steps), by `start_ms`. Weeks
// start on Monday 00:00 UTC. The server keeps the partitions of the retention window and the
// weeks ahead in place; a row whose week has none (a clock far off, a replay of old traces, rows
// an upgrade moved over) lands in the DEFAULT partition and goes by key with its run. A week
// older than every project's retention holds only expired runs' rows (no span or step starts
// before its run) and is dropped whole by the retention sweep.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';
import { DEFAULT_RETENTION_DAYS } from '../schema/projects';
import { tryNamedXactLock } from './xact-locks';

export const PARTITIONED_TABLES = ['spans', 'steps'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday: Monday 1970-01-05 is the first week start after the epoch. */
const MONDAY_MS = 4 * DAY_MS;
const WEEKS_AHEAD = 2;

/** One upkeep at a time across every server on the database. */
const PARTITION_LOCK = 'loopscope:time-partitions';

export function weekStartMs(ms: number): number {
  return Math.floor((ms - MONDAY_MS) / WEEK_MS) * WEEK_MS + MONDAY_MS;
}

export function partitionName(table: PartitionedTable, weekStart: number): string {
  return `${table}_w${new Date(weekStart).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

export interface TimePartition {
  name: string;
  fromMs: number;
  toMs: number;
}

/** The weekly partitions of a table (not DEFAULT), oldest first. */
export async function listTimePartitions(
  db: Executor,
  table: PartitionedTable,
): Promise<TimePartition[]> {
  const rows = await queryRows(
    db,
    sql`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${table}::regclass`,
    z.object({ name: column.text }),
  );
  const pattern = new RegExp(`^${table}_w(\\d{4})(\\d{2})(\\d{2})$`);
  const partitions: TimePartition[] = [];
  for (const { name } of rows) {
    const m = pattern.exec(name);
    if (!m) continue;
    const fromMs = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    partitions.push({ name, fromMs, toMs: fromMs + WEEK_MS });
  }
  return partitions.sort((a, b) => a.fromMs - b.fromMs);
}

export interface UpkeepOutcome {
  /** Partitions created, by name. */
  created: string[];
  /** Rows moved out of DEFAULT into the new partitions. */
  moved: number;
  /** Another server held the upkeep lock (or a table's lock did not come in time). */
  busy: boolean;
}

/**
 * Creates the weekly partitions from the week `daysBack` days before `now` to two weeks ahead,
 * on both tables. Rows DEFAULT holds for those weeks move into them in the same transaction.
 */
export async function ensureTimePartitions(
  db: Executor,
  options: { now?: Date; daysBack: number },
): Promise<UpkeepOutcome> {
  const now = (options.now ?? new Date()).getTime();
  const first = weekStartMs(now - options.daysBack * DAY_MS);
  const last = weekStartMs(now) + WEEKS_AHEAD * WEEK_MS;
  const outcome: UpkeepOutcome = { created: [], moved: 0, busy: false };
  for (const table of PARTITIONED_TABLES) {
    const done = await db.transaction(async (tx) => {
      if (!(await tryNamedXactLock(tx, PARTITION_LOCK))) return null;
      const have = new Set((await listTimePartitions(tx, table)).map((p) => p.fromMs));
      const missing: number[] = [];
      for (let week = first; week <= last; week += WEEK_MS) if (!have.has(week)) missing.push(week);
      if (missing.length === 0) return { created: [], moved: 0 };
      // A lock that does not come soon is given up: waiting for it would queue every write.
      await tx.execute(sql`set local lock_timeout = '5s'`);
      const moved = await createPartitions(tx, table, missing);
      return { created: missing.map((w) => partitionName(table, w)), moved };
    });
    if (done === null) return { ...outcome, busy: true };
    outcome.created.push(...done.created);
    outcome.moved += done.moved;
  }
  return outcome;
}

/** The upkeep as the server runs it: the weeks of the longest retention any project keeps. */
export async function keepTimePartitions(db: Executor, now?: Date): Promise<UpkeepOutcome> {
  const [longest] = await queryRows(
    db,
    sql`select coalesce(max(retention_days), ${DEFAULT_RETENTION_DAYS}) as days from projects`,
    z.object({ days: column.number }),
  );
  return ensureTimePartitions(db, { now, daysBack: longest?.days ?? DEFAULT_RETENTION_DAYS });
}

async function createPartitions(
  tx: Executor,
  table: PartitionedTable,
  weeks: readonly number[],
): Promise<number> {
  const create = (week: number) =>
    sql.raw(
      `create table ${partitionName(table, week)} partition of ${table}
        for values from (${week}) to (${week + WEEK_MS})`,
    );
  const low = Math.min(...weeks);
  const high = Math.max(...weeks) + WEEK_MS;
  const [held] = await queryRows(
    tx,
    sql`select exists (select 1 from ${sql.raw(`${table}_default`)}
      where start_ms >= ${low} and start_ms < ${high}) as held`,
    z.object({ held: column.boolean }),
  );
  if (!held?.held) {
    for (const week of weeks) await tx.execute(create(week));
    return 0;
  }
  // DEFAULT holds rows of these weeks (after an upgrade, or from a clock ahead): it is taken
  // out, replaced by an empty one, and its rows are inserted again, each routed to its week, in
  // one pass. The table is locked meanwhile: this happens at the first start after the upgrade,
  // before the server takes traffic, and later only for the few rows a clock far ahead sent.
  const moving = sql.raw(`${table}_default_moving`);
  await tx.execute(sql.raw(`lock table ${table} in access exclusive mode`));
  await tx.execute(sql.raw(`alter table ${table} detach partition ${table}_default`));
  await tx.execute(sql.raw(`alter table ${table}_default rename to ${table}_default_moving`));
  await tx.execute(sql.raw(`create table ${table}_default partition of ${table} default`));
  for (const week of weeks) await tx.execute(create(week));
  const [count] = await queryRows(
    tx,
    sql`with routed as (insert into ${sql.raw(table)} select * from ${moving} returning tableoid)
      select count(*) filter (where tableoid <> ${`${table}_default`}::regclass) as n from routed`,
    z.object({ n: column.number }),
  );
  await tx.execute(sql`drop table ${moving}`);
  return count?.n ?? 0;
}

/**
 * Drops the weekly partitions that end at or before `beforeMs`, inside the caller's transaction
 * (which holds the retention lock). Returns their names.
 */
export async function dropTimePartitionsBefore(tx: Executor, beforeMs: number): Promise<string[]> {
  const dropped: string[] = [];
  await tx.execute(sql`set local lock_timeout = '5s'`);
  for (const table of PARTITIONED_TABLES) {
    for (const p of await listTimePartitions(tx, table)) {
      if (p.toMs > beforeMs) continue;
      await tx.execute(sql.raw(`drop table ${p.name}`));
      dropped.push(p.name);
    }
  }
  return dropped;
}

/**
 * Deletes a table's rows matching `where` (a key condition, project_id first). With
 * `droppedBeforeMs`, rows that start before it are left to the partitions about to be dropped:
 * only the partitions from there on are searched, and DEFAULT, which is never dropped.
 */
export async function deleteByKey(
  tx: Executor,
  table: PartitionedTable,
  where: SQL,
  droppedBeforeMs?: number,
): Promise<void> {
  if (droppedBeforeMs === undefined) {
    await tx.execute(sql`delete from ${sql.raw(table)} where ${where}`);
    return;
  }
  await tx.execute(
    sql`delete from ${sql.raw(table)} where ${where} and start_ms >= ${droppedBeforeMs}`,
  );
  await tx.execute(
    sql`delete from ${sql.raw(`${table}_default`)} where ${where} and start_ms < ${droppedBeforeMs}`,
  );
}
