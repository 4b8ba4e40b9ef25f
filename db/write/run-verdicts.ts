// A person's verdicts on runs (POST/DELETE /api/v1/runs/{id}/verdict): written here, read back by
// every derivation of the run (derive/derive-runs.ts), so a verdict outlives new spans.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { HUMAN_VERDICTS } from '../../trajectory/verification';
import type { HumanVerdict } from '../../trajectory/verification';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';

export interface GivenVerdict {
  verdict: HumanVerdict;
  units: number;
  note: string | null;
}

export async function saveVerdict(
  tx: Executor,
  projectId: string,
  runId: string,
  given: GivenVerdict,
): Promise<void> {
  await tx.execute(sql`
    insert into run_verdicts (project_id, run_id, verdict, units, note, given_at)
    values (${projectId}::uuid, ${runId}, ${given.verdict}, ${given.units}, ${given.note}, now())
    on conflict (project_id, run_id) do update set verdict = excluded.verdict,
      units = excluded.units, note = excluded.note, given_at = excluded.given_at`);
}

export async function removeVerdict(tx: Executor, projectId: string, runId: string) {
  await tx.execute(sql`delete from run_verdicts
    where project_id = ${projectId}::uuid and run_id = ${runId}`);
}

const verdictRow = z.object({
  runId: column.text,
  verdict: z.enum(HUMAN_VERDICTS),
  units: column.number,
  note: column.textOrNull,
  givenAt: column.isoTime,
});
export type VerdictRecord = z.output<typeof verdictRow>;

export async function loadVerdicts(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, VerdictRecord>> {
  if (runIds.length === 0) return new Map();
  const rows = await queryRows(
    tx,
    sql`select run_id as "runId", verdict, units, note, given_at as "givenAt" from run_verdicts
        where project_id = ${projectId}::uuid and run_id = any(${asPgArray(runIds)}::text[])`,
    verdictRow,
  );
  return new Map(rows.map((row) => [row.runId, row]));
}
