// Window rules on a schedule: every few minutes each enabled window rule compares its windows
// (lib/alerts/judge-window.ts) from the rollups, and a rise becomes an outbox event, once per
// rule and window (the outbox's unique key), for the sender to deliver.
import type { Database } from '../db/client';
import { describeError } from '../db/errors';
import { enabledWindowRules } from '../db/read/alert-rules';
import { listProjects } from '../db/read/projects';
import { categoryShare, weekSpend } from '../db/read/window-alert-totals';
import { fireEvents } from '../db/write/alert-outbox';
import { judgeCostRise, judgeShareRise, windowsAt } from '../lib/alerts/judge-window';

/** Judges every enabled window rule as of `now`; returns how many events it fired. */
export async function judgeWindowRules(db: Database, now = new Date()): Promise<number> {
  let fired = 0;
  const rules = [];
  for (const { id: projectId } of await listProjects(db, null)) {
    rules.push(...(await enabledWindowRules(db, projectId)));
  }
  for (const rule of rules) {
    const { when, projectId, agent } = rule;
    const pair = windowsAt(when, now);
    let summary: string | null;
    if (when.kind === 'exit_share_rise') {
      const q = { projectId, category: when.category, agent };
      summary = judgeShareRise(
        when,
        await categoryShare(db, { ...q, window: pair.current }),
        await categoryShare(db, { ...q, window: pair.previous }),
        rule.name,
      );
    } else {
      const day = (d: Date) => d.toISOString().slice(0, 10);
      summary = judgeCostRise(
        when,
        await weekSpend(db, { projectId, agent, monday: day(pair.current.from) }),
        await weekSpend(db, { projectId, agent, monday: day(pair.previous.from) }),
        rule.name,
      );
    }
    if (summary === null) continue;
    const detail = { from: pair.current.from.toISOString(), to: pair.current.to.toISOString() };
    const ids = await fireEvents(db, projectId, [
      { ruleId: rule.id, dedupeKey: pair.dedupeKey, runId: null, summary, detail },
    ]);
    fired += ids.length;
  }
  return fired;
}

export function startWindowAlerts(
  db: () => Database | null,
  log: (message: string) => void,
  everyMs = 5 * 60_000,
): NodeJS.Timeout {
  const timer = setInterval(() => {
    const current = db();
    if (!current) return;
    judgeWindowRules(current).catch((error: unknown) =>
      log(`judging window alert rules failed: ${describeError(error)}`),
    );
  }, everyMs);
  timer.unref();
  return timer;
}
