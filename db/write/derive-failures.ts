import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asJsonParam, asPgArray } from '../sql';

export interface DeriveFailure {
  runId: string;
  error: string;
}

/**
 * Quarantines runs that failed to derive: records the error and puts the run's mark back with a
 * `not_before` that doubles with each attempt (1 minute up to 6 hours), so it waits out of every
 * backlog instead of failing again each second.
 */
export async function recordDeriveFailures(
  tx: Executor,
  projectId: string,
  failures: readonly DeriveFailure[],
): Promise<void> {
  if (failures.length === 0) return;
  const rows = [...failures].sort((a, b) => (a.runId < b.runId ? -1 : 1));
  await tx.execute(sql`
    with failed as (
      insert into derive_failures (project_id, run_id, error, attempts, retry_at)
      select ${projectId}::uuid, x.run_id, x.error, 1, now() + interval '1 minute'
      from jsonb_to_recordset(${asJsonParam(rows.map((f) => ({ run_id: f.runId, error: f.error })))}::jsonb)
        as x(run_id text, error text)
      on conflict (project_id, run_id) do update set
        error = excluded.error,
        attempts = derive_failures.attempts + 1,
        last_failed_at = now(),
        retry_at = now() + least(interval '6 hours',
          interval '1 minute' * power(2, least(derive_failures.attempts, 16)))
      returning run_id, retry_at
    )
    insert into dirty_runs (project_id, run_id, not_before)
    select ${projectId}::uuid, run_id, retry_at from failed
    on conflict (project_id, run_id) do update set not_before = excluded.not_before`);
}

/** The runs derived again: out of quarantine. */
export async function clearDeriveFailures(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<void> {
  if (runIds.length === 0) return;
  await tx.execute(sql`delete from derive_failures
    where project_id = ${projectId}::uuid and run_id = any(${asPgArray(runIds)}::text[])`);
}

/** At start (perhaps after an upgrade that fixes them): every quarantined run is tried again. */
export async function retryQuarantinedRuns(db: Executor): Promise<void> {
  await db.execute(sql`update dirty_runs set not_before = null where not_before is not null`);
}
