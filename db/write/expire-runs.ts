// Retention: each project's runs that started more than its `retention_days` ago go, in batches
// found by the runs' (project_id, started_at) index, so only the expired part of the table is
// read; weekly partitions of spans and steps older than every project's retention are dropped.
// One process sweeps at a time: every batch's transaction first takes the retention lock
// (a transaction-level advisory lock), and a process that cannot get it leaves the sweep to the
// one that holds it.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, DatabaseHandle } from '../client';
import { column, queryRows } from '../sql';
import { deleteRuns } from './delete-runs';
import { expireTombstones } from './deleted-runs';
import { dropTimePartitionsBefore, weekStartMs } from './time-partitions';
import { tryNamedXactLock } from './xact-locks';

/** The retention sweep's lock (db/write/xact-locks.ts). */
const RETENTION_LOCK = 'loopscope:retention';

const DAY_MS = 86_400_000;

export interface ExpireOutcome {
  /** Runs removed, by project id. */
  removed: Map<string, number>;
  /** Another process held the retention lock: this sweep stopped at once. */
  busy: boolean;
  /** Weekly partitions dropped whole, by name. */
  droppedPartitions: string[];
}

/**
 * Runs a sweep's transaction removes. PGlite has one engine for every connection: each batch
 * holds off every read until it commits, so its batches are small (at 500, reads during a sweep
 * of 10M steps waited 0.8 s each).
 */
export function retentionBatch(kind: DatabaseHandle['kind']): number {
  return kind === 'pglite' ? 50 : 500;
}

export async function expireRuns(
  db: Database,
  options: { now?: Date; batch?: number } = {},
): Promise<ExpireOutcome> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? 500;
  const removed = new Map<string, number>();
  const projects = await queryRows(
    db,
    sql`select id, retention_days from projects order by id`,
    z.object({ id: column.text, retention_days: column.number }),
  );
  // Weeks that end before every project's cutoff hold only expired runs' spans and steps (none
  // starts before its run): those rows are not deleted one by one but dropped with their
  // partition once every project is swept. A second of margin covers started_at's rounding.
  const longest = Math.max(0, ...projects.map((p) => p.retention_days));
  const droppedBeforeMs =
    projects.length === 0 ? undefined : weekStartMs(now.getTime() - longest * DAY_MS - 1000);
  for (const project of projects) {
    const cutoff = new Date(now.getTime() - project.retention_days * DAY_MS);
    for (;;) {
      const outcome = await db.transaction(async (tx) => {
        if (!(await tryNamedXactLock(tx, RETENTION_LOCK))) return null;
        const expired = await queryRows(
          tx,
          // By its latest activity too (its spans' trusted times, derive/run-times.ts): a run
          // still active within the retention stays, however long ago it started.
          sql`select id from runs where project_id = ${project.id}::uuid
            and started_at < ${cutoff.toISOString()}::timestamptz
            and last_span_end_ms < ${cutoff.getTime()}
            order by started_at limit ${batch}`,
          z.object({ id: column.text }),
        );
        await deleteRuns(
          tx,
          project.id,
          expired.map((r) => r.id),
          droppedBeforeMs,
        );
        if (expired.length < batch) await expireTombstones(tx, project.id, cutoff);
        return expired.length;
      });
      if (outcome === null) return { removed, busy: true, droppedPartitions: [] };
      if (outcome > 0) removed.set(project.id, (removed.get(project.id) ?? 0) + outcome);
      if (outcome < batch) break;
    }
  }
  if (droppedBeforeMs === undefined) return { removed, busy: false, droppedPartitions: [] };
  const dropped = await db.transaction(async (tx) =>
    (await tryNamedXactLock(tx, RETENTION_LOCK))
      ? dropTimePartitionsBefore(tx, droppedBeforeMs)
      : null,
  );
  return { removed, busy: dropped === null, droppedPartitions: dropped ?? [] };
}
