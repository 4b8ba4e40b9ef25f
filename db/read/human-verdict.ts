// A person's verdict on one run, with the note they kept: what the run page's "I checked" shows.
import type { Executor } from '../sql';
import { loadVerdicts } from '../write/run-verdicts';
import type { VerdictRecord } from '../write/run-verdicts';

export type { VerdictRecord };

export async function humanVerdict(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<VerdictRecord | null> {
  return (await loadVerdicts(db, projectId, [runId])).get(runId) ?? null;
}
