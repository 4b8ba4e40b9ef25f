// Whether a run rule fires on a run as just derived, and what the event says. Pure: the derive
// step hands it the run's summary columns.
import type { RunCondition } from './rule';

export interface RunFacts {
  id: string;
  agent: string | null;
  exitCategory: string;
  exitReason: string | null;
  fabricatedSuccess: boolean;
  unexplainedStop: boolean;
  firstSignalStep: number | null;
  wastedUsd: number;
  costUsd: number;
}

/** The event's summary when `when` fires on the run, else null. */
export function judgeRun(when: RunCondition, run: RunFacts, ruleName: string): string | null {
  const what = runFinding(when, run);
  if (what === null) return null;
  const agent = run.agent === null ? '' : ` of agent ${run.agent}`;
  return `${ruleName}: run ${run.id}${agent} ${what}`;
}

function runFinding(when: RunCondition, run: RunFacts): string | null {
  switch (when.kind) {
    case 'fabricated_success':
      return run.fabricatedSuccess
        ? `claimed success (${run.exitReason ?? run.exitCategory}) but the environment contradicted it`
        : null;
    case 'loop': {
      const min = when.minWastedUsd ?? 0;
      if (run.firstSignalStep === null || run.wastedUsd < min) return null;
      return `looped from step ${run.firstSignalStep}, wasting ${dollars(run.wastedUsd)}`;
    }
    case 'exit_category':
      return when.categories.includes(run.exitCategory as never)
        ? `ended ${run.exitCategory}${run.exitReason ? ` (${run.exitReason})` : ''}`
        : null;
    case 'run_cost_over':
      return run.costUsd > when.usd
        ? `cost ${dollars(run.costUsd)}, over ${dollars(when.usd)}`
        : null;
    case 'unexplained_stop':
      return run.unexplainedStop ? 'stopped without naming why' : null;
  }
}

export function dollars(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
