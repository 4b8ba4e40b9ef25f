// Runs that could not be derived (db/schema/derive-failures.ts), for the dashboard to show.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DeriveFailureRecord } from '../../lib/api-types';
import type { Executor } from '../sql';
import { queryRows } from '../sql';

const iso = z.union([z.date(), z.string()]).transform((v) => new Date(v).toISOString());
const row = z.object({
  run_id: z.string(),
  error: z.string(),
  attempts: z.coerce.number(),
  first_failed_at: iso,
  retry_at: iso,
  total: z.coerce.number(),
});

/** The project's quarantined runs, most recently failed first, and how many there are. */
export async function listDeriveFailures(
  db: Executor,
  { projectId, runId, limit = 5 }: { projectId: string; runId?: string; limit?: number },
): Promise<{ total: number; runs: DeriveFailureRecord[] }> {
  const only = runId === undefined ? sql`` : sql`and run_id = ${runId}`;
  const rows = await queryRows(
    db,
    sql`select run_id, error, attempts, first_failed_at, retry_at, count(*) over () as total
          from derive_failures where project_id = ${projectId}::uuid ${only}
          order by last_failed_at desc, run_id limit ${limit}`,
    row,
  );
  return {
    total: rows[0]?.total ?? 0,
    runs: rows.map((r) => ({
      runId: r.run_id,
      error: r.error,
      attempts: r.attempts,
      firstFailedAt: r.first_failed_at,
      retryAt: r.retry_at,
    })),
  };
}
