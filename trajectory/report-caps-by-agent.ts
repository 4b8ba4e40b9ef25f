// The cap optimum of each agent: over several agents one dollar or step cap is an average of
// agents that cost very differently, and the cheap ones' optimum disappears in it.
import {
  bestCap,
  dollarCapCurve,
  simulateCaps,
  stepCapCandidates,
  stepCapCurve,
} from './report-caps';
import type { CapOutcome, CapRun } from './report-caps';

export interface AgentOptimum {
  agent: string | null;
  runs: number;
  /** Cost per verified unit as recorded (under the dollar cap in force, if any). */
  asRecorded: number | null;
  bestStep: CapOutcome | null;
  bestDollar: CapOutcome | null;
}

/** One row per agent, most runs first. */
export function optimaByAgent(
  runs: readonly (CapRun & { agent: string | null })[],
  options: { maxUsd?: number | null } = {},
): AgentOptimum[] {
  const groups = new Map<string | null, CapRun[]>();
  for (const run of runs) groups.set(run.agent, [...(groups.get(run.agent) ?? []), run]);
  return [...groups]
    .map(([agent, group]) => ({
      agent,
      runs: group.length,
      asRecorded: simulateCaps(group, { maxUsd: options.maxUsd }).costPerVerifiedUnit,
      bestStep: bestCap(
        stepCapCurve(group, { maxUsd: options.maxUsd, caps: stepCapCandidates(group) }),
      ),
      bestDollar: bestCap(dollarCapCurve(group)),
    }))
    .sort((x, y) => y.runs - x.runs || String(x.agent).localeCompare(String(y.agent)));
}
