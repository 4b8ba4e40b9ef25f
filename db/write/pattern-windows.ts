// The windows the patterns read ranks from (db/schema/loop-patterns.ts, pattern_windows): each
// pattern's sum over the last `days` to a whole UTC hour (the hour begun and the next one, built
// ahead), kept by the rollup's deltas (run-patterns.ts) while its anchor is listed. A build and a
// delta never interleave: deltas hold the project's lock shared, a build holds it alone, so a
// delta either lands before the build sums the rollup or finds the new anchor listed.
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
 * already, and drops those ending more than an hour before it; true when it built one.
 */
export async function buildPatternWindow(
  db: Database,
  projectId: string,
  days: number,
  anchorMs: number,
): Promise<boolean> {
  if (anchorMs % HOUR_MS !== 0) throw new Error(`a window ends at a whole hour, not ${anchorMs}`);
  const anchor = sql`${new Date(anchorMs).toISOString()}::timestamptz`;
  const older = sql`${new Date(anchorMs - HOUR_MS).toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${lockKey(projectId)})`);
    const listed = await queryRows(
      tx,
      sql`select 1 as listed from pattern_window_anchors
        where project_id = ${projectId}::uuid and days = ${days} and anchor = ${anchor}`,
      z.object({ listed: column.number }),
    );
    if (listed.length > 0) return false;
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
      where project_id = ${projectId}::uuid and days = ${days} and anchor < ${older}`);
    await tx.execute(sql`
      delete from pattern_window_anchors
      where project_id = ${projectId}::uuid and days = ${days} and anchor < ${older}`);
    return true;
  });
}

/**
 * Builds every project's windows ending at the hour `nowMs` is in and at the next one, those not
 * built yet (what the server does each minute): a read ending at any time of the hour is then at
 * most half an hour from one of them. How many it built.
 */
export async function keepPatternWindows(db: Database, nowMs: number): Promise<number> {
  const hour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const anchors = [hour, hour + HOUR_MS].map((ms) => new Date(ms).toISOString());
  const due = await queryRows(
    db,
    sql`select p.id as project_id, d.days,
        (extract(epoch from e.anchor) * 1000)::float8 as anchor
      from projects p
      cross join unnest(${`{${PATTERN_WINDOW_DAYS.join(',')}}`}::int[]) as d(days)
      cross join unnest(${`{${anchors.join(',')}}`}::timestamptz[]) as e(anchor)
      where not exists (
        select 1 from pattern_window_anchors a
        where a.project_id = p.id and a.days = d.days and a.anchor = e.anchor)
      order by 1, 2, 3`,
    z.object({ project_id: column.text, days: column.number, anchor: column.number }),
  );
  let built = 0;
  for (const { project_id, days, anchor } of due) {
    if (await buildPatternWindow(db, project_id, days, anchor)) built++;
  }
  return built;
}
