// Run rules judged as runs are derived, in the same transaction: a fired rule becomes an outbox
// row that commits with the run or not at all. The unique key per rule and run makes a rule fire
// at most once per run, however often the run is derived again.
import { enabledRunRules } from '../db/read/alert-rules';
import { fireEvents } from '../db/write/alert-outbox';
import type { FiredEvent } from '../db/write/alert-outbox';
import type { RunRow } from '../db/write/save-runs';
import type { Executor } from '../db/sql';
import { judgeRun } from '../lib/alerts/judge-run';

export async function fireRunAlerts(
  tx: Executor,
  projectId: string,
  runs: readonly RunRow[],
): Promise<void> {
  if (runs.length === 0) return;
  const rules = await enabledRunRules(tx, projectId);
  if (rules.length === 0) return;
  const fired: FiredEvent[] = [];
  for (const run of runs) {
    // A fragment is not a run of its own (docs/conventions.md): nothing to alert on.
    if (run.fragment) continue;
    for (const rule of rules) {
      if (rule.agent !== null && rule.agent !== run.agent) continue;
      const summary = judgeRun(rule.when, run, rule.name);
      if (summary === null) continue;
      fired.push({
        ruleId: rule.id,
        dedupeKey: `run:${run.id}`,
        runId: run.id,
        summary,
        detail: null,
      });
    }
  }
  await fireEvents(tx, projectId, fired);
}
