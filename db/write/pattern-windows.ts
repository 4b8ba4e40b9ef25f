// The windows the patterns read ranks from (db/schema/loop-patterns.ts, pattern_windows): each
// pattern's sum over the last `days` to a whole UTC hour, built once that hour has begun and kept
// by the rollup's deltas (run-patterns.ts) while its anchor is listed. A build and a delta never
// interleave: deltas hold the project's lock shared, a build holds it alone, so a delta either
// lands before the build sums the rollup or finds the new anchor listed.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { windowParts } from '../read/loop-patterns';
import type { Database } from '../client';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';

/** The window lengths kept, in days: the ones whose sum is too many rollup rows to add up live. */
export const PATTERN_WINDOW_DAYS: readonly number[] = [1, 7];

const HOUR_MS = 3_600_000;
const lockKey = (projectId: string) =>
  sql`hashtextextended(${`loopscope:pattern-windows:${projectId}`}, 0)`;

/** Taken by a transaction about to change the project's pattern rollup (held to its end). */
export async function sharePatternWindows(tx: Executor, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${lockKey(projectId)})`);
}

/**
 * Builds the project's window of `days` ending at the whole hour `anchorMs`, unless listed
 * already, and drops the ones it replaces; true when it built one.
 */
export async function buildPatternWindow(
  db: Database,
  projectId: string,
  days: number,
  anchorMs: number,
): Promise<boolean> {
  if (anchorMs % HOUR_MS !== 0) throw new Error(`a window ends at a whole hour, not ${anchorMs}`);
  const anchor = sql`${new Date(anchorMs).toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(projectId)})`);
    const [listed] = await queryRows(
      tx,
      sql`select max(anchor) >= ${anchor} as listed from pattern_window_anchors
        where project_id = ${projectId}::uuid and days = ${days}`,
      z.object({ listed: column.boolean.nullable() }),
    );
    if (listed?.listed === true) return false;
    const parts = windowParts(
      {
        projectId,
        window: { from: new Date(anchorMs - days * 24 * HOUR_MS), to: new Date(anchorMs) },
      },
      sql``,
    );
    await tx.execute(sql`
      insert into pattern_windows (project_id, days, anchor, signature, kind, agent, runs,
        wasted_usd)
      select ${projectId}::uuid, ${days}::int, ${anchor}, signature, kind, agent, sum(runs)::int,
        sum(wasted_usd)
      from (${sql.join(parts, sql` union all `)}) p
      group by signature, kind, agent
      having sum(runs) > 0
      order by signature, kind, agent`);
    await tx.execute(sql`
      insert into pattern_window_anchors (project_id, days, anchor)
      values (${projectId}::uuid, ${days}, ${anchor})`);
    await tx.execute(sql`
      delete from pattern_windows
      where project_id = ${projectId}::uuid and days = ${days} and anchor < ${anchor}`);
    await tx.execute(sql`
      delete from pattern_window_anchors
      where project_id = ${projectId}::uuid and days = ${days} and anchor < ${anchor}`);
    return true;
  });
}

/**
 * Builds every project's windows that do not yet end at the hour `nowMs` is in (what the server
 * does each minute); how many it built.
 */
export async function keepPatternWindows(db: Database, nowMs: number): Promise<number> {
  const anchorMs = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const due = await queryRows(
    db,
    sql`select p.id as project_id, d.days
      from projects p
      cross join unnest(${`{${PATTERN_WINDOW_DAYS.join(',')}}`}::int[]) as d(days)
      where not exists (
        select 1 from pattern_window_anchors a
        where a.project_id = p.id and a.days = d.days
          and a.anchor >= ${new Date(anchorMs).toISOString()}::timestamptz)
      order by 1, 2`,
    z.object({ project_id: column.text, days: column.number }),
  );
  let built = 0;
  for (const { project_id, days } of due) {
    if (await buildPatternWindow(db, project_id, days, anchorMs)) built++;
  }
  return built;
}
